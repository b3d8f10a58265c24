// The settings console in a real browser (Debian's chromium through puppeteer-core) against the running platform:
// the flows of the issue, an axe-core check of every page at 1280 and 390 px, a screenshot per flow under
// .data/test-output/console/.
// Page functions run in the browser; the server's program has no DOM typings.
declare const document: any;
declare const window: any;
declare const location: any;
import type { Browser } from 'puppeteer-core';
import {
  call,
  isolatedInfra,
  startTestPlatform,
  testConfig,
  type TestAccount,
  type TestPlatform,
  type TestTenant,
} from '../support/platform.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { axeProblems, clickButton, ensureConsoleBuilt, flow, launch, overflowsHorizontally, waitForText, type Flow } from './browser.js';

let platform: TestPlatform;
let infra: Awaited<ReturnType<typeof isolatedInfra>>;
let receiver: WebhookReceiver;
let browser: Browser;
let owner: TestAccount;
let member: TestAccount;
let staff: TestAccount;
let workspaceId: string;
let tenant: TestTenant;

beforeAll(async () => {
  ensureConsoleBuilt();
  // A database and Redis of its own: no other test file's workers take this file's webhook deliveries.
  infra = await isolatedInfra();
  receiver = await startWebhookReceiver();
  platform = await startTestPlatform({
    databaseUrl: infra.databaseUrl,
    redisUrl: infra.redisUrl,
    outboxPollMs: 200,
    webhooks: {
      ...testConfig().webhooks,
      allowPrivateTargets: true,
      caFile: receiver.caFile,
      retrySchedule: [0, 1, 1, 1, 1, 1],
      timeoutMs: 2_000,
      sweepMs: 500,
    },
  });
  tenant = await platform.tenant();
  [owner, member, staff] = [await tenant.account(), await tenant.account(), await tenant.account()];
  const ws = await call(platform.partnerUrl, 'POST', '/api/v1/workspaces', { token: owner.token, body: { name: 'Acme settings' } });
  expect(ws.status).toBe(201);
  workspaceId = ws.body.id;
  const admin = await platform.adminToken();
  expect(
    (await call(platform.partnerUrl, 'PUT', `/api/v1/workspaces/${workspaceId}/plan`, { token: admin, body: { plan: 'business' } })).status,
  ).toBe(200);
  // A custom role without cells: a "Member" in both conventions' terms.
  const role = await call(platform.partnerUrl, 'POST', `/api/v1/workspaces/${workspaceId}/roles`, {
    token: owner.token,
    body: { name: 'sales_rep', api_keys: { view: false, create: false, delete: false } },
  });
  expect(role.status).toBe(201);
  for (const [account, r] of [
    [member, 'sales_rep'],
    [staff, 'staff'],
  ] as const) {
    expect(
      (
        await call(platform.partnerUrl, 'PUT', `/api/v1/workspaces/${workspaceId}/members/${account.id}`, {
          token: owner.token,
          body: { role: r },
        })
      ).status,
    ).toBe(200);
  }
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await platform?.stop();
  await infra?.drop();
  await receiver?.close();
});

const consoleAt = (token: string) => `${platform.chatUrl}/console/#token=${encodeURIComponent(token)}`;

/** Signs in through the URL fragment (as the surrounding platform does), then opens the route. */
async function open(f: Flow, token: string, route: string): Promise<void> {
  await f.page.goto(consoleAt(token));
  await f.page.waitForSelector('.brand');
  await f.page.evaluate((r) => (location.hash = r), route);
}

/** Time cells whose text takes more than one line (a wrapped date), as "label: text". */
async function wrappedTimes(f: Flow): Promise<string[]> {
  return f.page.$$eval('td.time', (cells: any[]) =>
    cells
      .filter((td) => {
        const range = document.createRange();
        range.selectNodeContents(td);
        return new Set([...range.getClientRects()].map((r: any) => Math.round(r.top))).size > 1;
      })
      .map((td) => `${td.dataset.label}: ${td.textContent}`),
  );
}

// Functions run in the page (puppeteer sends their source): they read the DOM and use nothing from this file.

/** The texts of the buttons that create or revoke a key. */
function keyWriteButtons(els: any[]): (string | null)[] {
  return els.map((e) => e.textContent as string | null).filter((t) => /Create|Revoke/.test(t ?? ''));
}

/** Whether the audit table lists exactly one request, the GET /api/v1/leads. */
function onlyTheLeadsRequestListed(): boolean {
  return document.querySelectorAll('tbody tr').length === 1 && document.body.innerText.includes('GET /api/v1/leads');
}

/**
 * The time of the first audit row once its status is a 4xx, null until then. Status and time are read in one look
 * at the page, so a late reload between two reads cannot empty the table.
 */
function refusedRowTime(): string | null {
  const status = document.querySelector('tbody td[data-label="Status"]')?.textContent ?? '';
  const at = document.querySelector('tbody td[data-label="Time (UTC)"]')?.textContent;
  return /^4\d\d$/.test(status) && at ? at : null;
}

async function expectAccessible(f: Flow, what: string): Promise<void> {
  const problems = await axeProblems(f.page);
  if (problems.length > 0) throw new Error(`${what}: ${problems.join('; ')}`);
}

test('convention A: create a key and see it once, see the +N collapse, revoke it and see the API refuse it', async () => {
  const f = await flow(browser, 'a-key');
  try {
    await f.step('the sign-in page', async () => {
      await f.page.goto(`${platform.chatUrl}/console/`);
      await f.page.waitForSelector('#token');
      await f.shot('sign-in');
    });
    await f.step('open the API keys page', async () => {
      await open(f, owner.token, `#/w/${workspaceId}/api-keys`);
      await waitForText(f.page, 'No keys yet.');
      await expectAccessible(f, 'API keys page');
    });
    const key = await f.step('create a key from the "CRM sales full" preset', async () => {
      await clickButton(f.page, 'Create key');
      await f.page.waitForSelector('dialog[open] #key-name');
      await f.page.type('#key-name', 'ERP export');
      await clickButton(f.page, 'CRM sales full', 'dialog[open]');
      await waitForText(f.page, '5 of at most 20 picked');
      await expectAccessible(f, 'create key dialog');
      await clickButton(f.page, 'Create key', 'dialog[open]');
      await f.page.waitForSelector('dialog[open] #secret-value');
      await waitForText(f.page, 'It is shown only once');
      expect(await f.page.$eval('dialog[open] .warning', (e: any) => e.textContent)).toContain('the server keeps only a hash of it');
      await expectAccessible(f, 'key shown once');
      await f.shot('key-shown-once');
      return f.page.$eval('#secret-value', (el) => (el as any).value);
    });
    expect(key).toMatch(/^live_[A-Za-z0-9_-]{40}$/);
    await f.step('close the dialog: the key is gone, the row shows 3 labels and +2', async () => {
      await clickButton(f.page, 'I have copied it, close');
      await f.page.waitForSelector('tbody tr');
      expect(await f.page.$('#secret-value')).toBeNull();
      const chips = await f.page.$$eval('tbody tr .chip', (els) => els.map((e) => e.textContent));
      expect(chips).toHaveLength(4);
      expect(chips[3]).toBe('+2');
      expect(await f.page.$eval('tbody td[data-label="Prefix"]', (e: any) => e.textContent)).toBe(key.slice(0, 8));
      expect(await f.page.evaluate((k) => document.body.innerText.includes(k), key)).toBe(false);
      expect(await wrappedTimes(f)).toEqual([]);
      await f.shot('list');
    });
    await f.step('the key works', async () => {
      expect((await call(platform.partnerUrl, 'GET', '/api/v1/partner/crm/_me', { headers: { 'x-api-key': key } })).status).toBe(200);
    });
    await f.step('revoke it behind the confirmation', async () => {
      await clickButton(f.page, 'Revoke');
      await waitForText(f.page, 'Revoke this key?');
      await expectAccessible(f, 'revoke confirmation');
      await clickButton(f.page, 'Revoke key', 'dialog[open]');
      await f.page.waitForFunction(() => document.querySelector('tbody .badge')?.textContent === 'Revoked');
      await f.shot('revoked');
    });
    await f.step('the API refuses the revoked key', async () => {
      const res = await call(platform.partnerUrl, 'GET', '/api/v1/partner/crm/_me', { headers: { 'x-api-key': key } });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('invalid_api_key');
    });
  } finally {
    await f.close();
  }
});

test('on a plan without external API access "Create key" is shown disabled with the reason, and no dialog opens', async () => {
  const ws = await call(platform.partnerUrl, 'POST', '/api/v1/workspaces', { token: owner.token, body: { name: 'Free corner' } });
  const f = await flow(browser, 'plan-gate');
  try {
    await f.step('the notice is shown', async () => {
      await open(f, owner.token, `#/w/${ws.body.id}/api-keys`);
      await waitForText(f.page, 'External API access is not enabled for this organisation.');
      await waitForText(f.page, 'No keys yet.');
    });
    await f.step('"Create key" is disabled and names the reason', async () => {
      const button = await f.page.$eval('#create-key', (b: any) => ({
        text: b.textContent,
        disabled: b.disabled,
        reason: document.getElementById(b.getAttribute('aria-describedby'))?.textContent,
      }));
      expect(button).toEqual({
        text: 'Create key',
        disabled: true,
        reason: 'The free plan has no external API access; a platform administrator can change the plan.',
      });
      await f.page.click('#create-key').catch(() => undefined);
      expect(await f.page.$('dialog[open]')).toBeNull();
      await expectAccessible(f, 'plan gate');
      await f.shot('disabled');
    });
    await f.step('on a plan with the module the same button is enabled', async () => {
      const admin = await platform.adminToken();
      expect(
        (await call(platform.partnerUrl, 'PUT', `/api/v1/workspaces/${ws.body.id}/plan`, { token: admin, body: { plan: 'team' } })).status,
      ).toBe(200);
      await f.page.reload();
      await f.page.waitForSelector('#create-key');
      expect(await f.page.$eval('#create-key', (b: any) => [b.disabled, b.getAttribute('aria-describedby')])).toEqual([false, null]);
    });
    expect((await platform.db.query('select count(*)::int as n from api_keys where workspace_id = $1', [ws.body.id])).rows[0].n).toBe(0);
  } finally {
    await f.close();
  }
});

test('an account in no workspace is offered to create one, and lands in it as its owner', async () => {
  const newcomer = await (await platform.tenant()).account();
  const f = await flow(browser, 'first-workspace');
  try {
    await f.step('the way forward is on the page', async () => {
      await open(f, newcomer.token, '#/');
      await waitForText(f.page, 'You are not a member of any workspace yet.');
      await waitForText(f.page, 'Create your first workspace');
      await expectAccessible(f, 'first workspace');
      await f.shot('empty');
    });
    await f.step("create it: the console opens it with the owner's pages", async () => {
      await f.page.type('#workspace-name', '   ');
      await waitForText(f.page, 'Give the workspace a name.');
      expect(
        await f.page.evaluate(
          () => [...document.querySelectorAll('button')].find((b: any) => b.textContent === 'Create workspace')?.disabled,
        ),
      ).toBe(true);
      await f.page.click('#workspace-name', { count: 3 });
      await f.page.keyboard.press('Backspace');
      await f.page.type('#workspace-name', 'Newcomer & Co');
      await clickButton(f.page, 'Create workspace');
      await f.page.waitForFunction(() => document.querySelector('.ws-name')?.textContent === 'Newcomer & Co');
      expect(await f.page.$$eval('nav ul a', (els) => els.map((e) => e.textContent))).toEqual([
        'API keys',
        'Service keys',
        'Key audit log',
        'Webhooks',
      ]);
      await f.shot('created');
    });
    const rows = await platform.db.query(
      'select w.name, m.role from workspaces w join workspace_members m on m.workspace_id = w.id where m.account_id = $1',
      [newcomer.id],
    );
    expect(rows.rows).toEqual([{ name: 'Newcomer & Co', role: 'owner' }]);
  } finally {
    await f.close();
  }
});

test('a token handed to an already open page (#token=) shows the new user at once, without a reload', async () => {
  const newcomer = await (await platform.tenant()).account();
  const f = await flow(browser, 'hand-off');
  try {
    await f.step('the first user sees their workspaces', async () => {
      await open(f, owner.token, '#/');
      await waitForText(f.page, 'Acme settings');
      await f.page.evaluate(() => ((window as any).samePage = true));
    });
    await f.step("the platform hands over another user's token: their view replaces the first one", async () => {
      await f.page.evaluate((t) => (location.hash = `#token=${encodeURIComponent(t)}`), newcomer.token);
      await waitForText(f.page, 'You are not a member of any workspace yet.');
      expect(await f.page.evaluate(() => document.body.innerText.includes('Acme settings'))).toBe(false);
      expect(await f.page.evaluate(() => (window as any).samePage)).toBe(true);
      expect(await f.page.evaluate(() => location.hash)).toBe('#/');
      await f.shot('handed-over');
    });
    await f.step("and back: the first user's workspaces return", async () => {
      await f.page.evaluate((t) => (location.hash = `#token=${encodeURIComponent(t)}`), owner.token);
      await waitForText(f.page, 'Acme settings');
      expect(await f.page.evaluate(() => (window as any).samePage)).toBe(true);
    });
  } finally {
    await f.close();
  }
});

test('a Member sees no settings page; Staff sees the key list without Create, and the server refuses it anyway', async () => {
  const f = await flow(browser, 'member');
  try {
    await f.step('a Member (custom role without cells) sees no settings pages', async () => {
      await open(f, member.token, `#/w/${workspaceId}/svc-keys`);
      await waitForText(f.page, 'No settings pages');
      expect(await f.page.$$('nav ul a')).toHaveLength(0);
      expect(await f.page.$('table')).toBeNull();
      await expectAccessible(f, 'no settings pages');
      await f.shot('no-pages');
    });
    await f.step('Staff (from 2026-09-14) sees the API keys page without Create or the convention B pages', async () => {
      await f.close();
      const g = await flow(browser, 'staff');
      try {
        await open(g, staff.token, `#/w/${workspaceId}/api-keys`);
        await g.page.waitForSelector('#page-title');
        expect(await g.page.$eval('#page-title', (e) => e.textContent)).toBe('API keys');
        expect(await g.page.$$eval('nav ul a', (els) => els.map((e) => e.textContent))).toEqual(['API keys']);
        expect(await g.page.$$eval('button', keyWriteButtons)).toEqual([]);
        await g.shot('staff');
      } finally {
        await g.close();
      }
      const refused = await call(platform.partnerUrl, 'POST', `/api/v1/workspaces/${workspaceId}/api-keys`, {
        token: staff.token,
        body: { name: 'sneaky', scopes: ['crm_leads:read'] },
      });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('permission_denied');
    });
  } finally {
    await f.close().catch(() => undefined);
  }
});

test('convention B: create a key with an IP allow-list checked as you type, see the API apply it, find it in the audit log', async () => {
  const f = await flow(browser, 'b-key');
  try {
    await f.step('open the service keys page', async () => {
      await open(f, owner.token, `#/w/${workspaceId}/svc-keys`);
      await waitForText(f.page, 'No service keys');
      await expectAccessible(f, 'service keys page');
    });
    const key = await f.step('fill the form; a bad allow-list entry is flagged and blocks Create', async () => {
      await clickButton(f.page, 'Create service key');
      await f.page.waitForSelector('dialog[open] #svc-name');
      await f.page.type('#svc-name', 'Warehouse sync');
      await f.page.type('#svc-description', 'Nightly lead import');
      await waitForText(f.page, 'crm.leads.read');
      await f.page.evaluate(() => {
        const box = [...document.querySelectorAll('dialog[open] label.check')]
          .find((l) => l.textContent?.trim() === 'crm.*')
          ?.querySelector('input');
        (box as any).click();
      });
      await f.page.type('#svc-ips', '203.0.113.0/33');
      await waitForText(f.page, 'has a prefix length outside 0-32');
      expect(await f.page.$eval('#svc-ips', (e) => e.getAttribute('aria-invalid'))).toBe('true');
      expect(
        await f.page.evaluate(() =>
          [...document.querySelectorAll('dialog[open] button')]
            .find((b) => b.textContent === 'Create service key')
            ?.hasAttribute('disabled'),
        ),
      ).toBe(true);
      await f.shot('ip-invalid');
      await f.page.keyboard.press('Backspace');
      await f.page.keyboard.press('Backspace');
      await f.page.type('#svc-ips', '24');
      await waitForText(f.page, '1 entry; other addresses are refused.');
      await expectAccessible(f, 'create service key dialog');
      await clickButton(f.page, 'Create service key', 'dialog[open]');
      await f.page.waitForSelector('dialog[open] #secret-value');
      const value = await f.page.$eval('#secret-value', (el) => (el as any).value);
      await clickButton(f.page, 'I have copied it, close');
      await f.page.waitForSelector('tbody tr');
      await waitForText(f.page, '203.0.113.0/24');
      expect(await f.page.$eval('tbody td[data-label="Creator"]', (e: any) => e.textContent.trim())).toBe('You');
      await f.shot('list');
      return value;
    });
    expect(key).toMatch(/^svc_live_[A-Za-z0-9]{32}$/);
    await f.step('a call from outside the allow-list is refused', async () => {
      const res = await call(platform.workspaceUrl, 'GET', '/api/v1/leads', { token: key });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('ip_not_allowed');
      await platform.flushSvcAudit!();
    });
    await f.step('the audit log shows the refusal, filtered by key and status', async () => {
      await f.page.evaluate((r) => (location.hash = r), `#/w/${workspaceId}/audit`);
      await f.page.waitForSelector('#audit-key option:nth-child(2)');
      const keyId = await f.page.$eval('#audit-key option:nth-child(2)', (o) => (o as any).value);
      await f.page.select('#audit-key', keyId);
      await f.page.type('#audit-status', '403');
      await f.page.waitForFunction(onlyTheLeadsRequestListed);
      // The status filter reloads the list as it is typed: read the row once the 403-filtered answer is shown.
      // Status and time are read in one look at the page, so a late reload between two reads cannot empty the table.
      const time = await f.page.waitForFunction(refusedRowTime);
      expect(await time.jsonValue()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(await wrappedTimes(f)).toEqual([]);
      await f.page.click('#audit-status', { count: 3 });
      await f.page.type('#audit-status', '200');
      await waitForText(f.page, 'No requests match.');
      await expectAccessible(f, 'audit log');
      await f.shot('audit');
    });
  } finally {
    await f.close();
  }
});

test('service keys name their creators and keep their dates on one line at 1280 px', async () => {
  const colleague = await tenant.account({ displayName: 'Dana Reyes' });
  expect(
    (
      await call(platform.partnerUrl, 'PUT', `/api/v1/workspaces/${workspaceId}/members/${colleague.id}`, {
        token: owner.token,
        body: { role: 'admin' },
      })
    ).status,
  ).toBe(200);
  const made = await call(platform.workspaceUrl, 'POST', `/api/v1/workspaces/${workspaceId}/svc-keys`, {
    token: colleague.token,
    body: { name: 'Colleague key', scopes: ['crm.*'] },
  });
  expect(made.status).toBe(201);
  const f = await flow(browser, 'creators');
  try {
    await f.step('the owner sees "You" for their keys and the name and role of the admin who made the other', async () => {
      await open(f, owner.token, `#/w/${workspaceId}/svc-keys`);
      await f.page.waitForSelector(`tr[data-key-id="${made.body.id}"]`);
      const creators = await f.page.$$eval('tbody tr', (rows: any[]) =>
        rows.map((r) => [
          r.querySelector('td[data-label="Name"]').firstChild.textContent,
          r.querySelector('td[data-label="Creator"]').textContent.trim(),
        ]),
      );
      expect(creators).toContainEqual(['Colleague key', 'Dana Reyes (Admin)']);
      expect(creators.filter(([name]) => name !== 'Colleague key').map(([, creator]) => creator)).toEqual(expect.arrayContaining(['You']));
      expect(await f.page.evaluate(() => /[0-9a-f]{8}-[0-9a-f]{4}|^[0-9a-f]{8}$/m.test(document.querySelector('tbody').innerText))).toBe(
        false,
      );
    });
    await f.step('every date of the list is on one line, to the second, and the table fits the page', async () => {
      expect(await wrappedTimes(f)).toEqual([]);
      expect(await overflowsHorizontally(f.page)).toBe(false);
      expect(await f.page.$eval('.table-wrap', (e: any) => e.scrollWidth <= e.clientWidth)).toBe(true);
      const created = await f.page.$$eval('td.time[data-label="Created (UTC)"]', (cells: any[]) => cells.map((c) => c.textContent));
      for (const text of created) expect(text).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      await f.shot('list');
    });
  } finally {
    await f.close();
  }
});

test('webhooks: create one for a local HTTPS receiver, send a test event, see it in the log, Resend and Replay, pause and resume', async () => {
  const f = await flow(browser, 'webhooks');
  const deliveryIds = () => receiver.received.map((r) => String(r.headers['x-svc-delivery']));
  try {
    await f.step("open the webhooks page: the Owner's own token, no key is made for it", async () => {
      const keysBefore = await platform.db.query('select count(*)::int as n from svc_keys where workspace_id = $1', [workspaceId]);
      await open(f, owner.token, `#/w/${workspaceId}/webhooks`);
      await waitForText(f.page, 'No webhooks yet.');
      await expectAccessible(f, 'webhooks page');
      const keysAfter = await platform.db.query('select count(*)::int as n from svc_keys where workspace_id = $1', [workspaceId]);
      expect(keysAfter.rows[0].n).toBe(keysBefore.rows[0].n);
    });
    await f.step("set the warning mail's address under the list: the page says where warnings go", async () => {
      await f.page.waitForSelector('#warning-email');
      await f.page.type('#warning-email', 'alerts@example.com');
      await clickButton(f.page, 'Save address');
      // The address is added to the Owner's, if the Owner has one: the hint ends with it either way.
      await waitForText(f.page, 'alerts@example.com.');
      expect(await f.page.evaluate(() => document.body.innerText)).toContain('Warnings go to ');
      const stored = await platform.db.query('select notification_email from workspaces where id = $1', [workspaceId]);
      expect(stored.rows[0].notification_email).toBe('alerts@example.com');
    });
    await f.step('an http:// URL is refused as you type; create with an event, a custom header and a generated secret', async () => {
      await clickButton(f.page, 'Create webhook');
      await f.page.waitForSelector('dialog[open] #wh-name');
      await f.page.type('#wh-name', 'CRM sync');
      await f.page.click('#wh-url', { count: 3 });
      await f.page.type('#wh-url', 'http://example.com/hook');
      await waitForText(f.page, 'Only https:// addresses are accepted');
      expect(await f.page.$eval('#wh-url', (e: any) => e.getAttribute('aria-invalid'))).toBe('true');
      await f.page.click('#wh-url', { count: 3 });
      await f.page.type('#wh-url', `${receiver.origin}/hook`);
      await f.page.evaluate(() => {
        const box = [...document.querySelectorAll('dialog[open] label.check')]
          .find((l: any) => l.textContent?.trim() === 'lead.created')
          ?.querySelector('input');
        box.click();
      });
      await clickButton(f.page, 'Add header', 'dialog[open]');
      await f.page.type('#wh-h-name-0', 'X-Team');
      await f.page.type('#wh-h-value-0', 'sales');
      await expectAccessible(f, 'create webhook dialog');
      await f.shot('create');
      await clickButton(f.page, 'Create webhook', 'dialog[open]');
      await f.page.waitForSelector('dialog[open] #secret-value');
      expect(await f.page.$eval('#secret-value', (e: any) => e.value)).toMatch(/^whsec_/);
      // The server must sign with the secret, so it keeps it encrypted, not as a hash.
      const warning = await f.page.$eval('dialog[open] .warning', (e: any) => e.textContent);
      expect(warning).toContain('the server keeps it encrypted, to sign deliveries with it');
      expect(warning).not.toContain('hash');
      await clickButton(f.page, 'I have copied it, close');
      await waitForText(f.page, 'Test ping to');
      await f.page.waitForFunction(() => document.querySelector('tbody .badge')?.textContent === 'Active');
      expect(receiver.received).toHaveLength(1);
      expect(await wrappedTimes(f)).toEqual([]);
      await f.shot('list');
    });
    await f.step('send a test event with an edited payload: status, body and latency are shown', async () => {
      await f.page.click('tbody a');
      await f.page.waitForSelector('#test-payload');
      await f.page.click('#test-payload', { count: 3 });
      await f.page.evaluate(() => {
        const area = document.querySelector('#test-payload');
        area.select();
      });
      await f.page.keyboard.press('Backspace');
      await f.page.type('#test-payload', '{"id":"l-1","name":"Grace Hopper"}');
      await clickButton(f.page, 'Send test');
      await f.page.waitForSelector('.test-status');
      expect(await f.page.$eval('.test-status', (e: any) => e.textContent)).toBe('200');
      expect(await f.page.$eval('.test-latency', (e: any) => e.textContent)).toMatch(/^\d+ ms$/);
      expect(await f.page.$eval('#test-body', (e: any) => e.value)).toBe('ok');
      const sent = receiver.received[1]!;
      expect(sent.headers['x-svc-event']).toBe('lead.created');
      expect(sent.headers['x-team']).toBe('sales');
      expect(JSON.parse(sent.body.toString()).data).toEqual({ id: 'l-1', name: 'Grace Hopper' });
      await expectAccessible(f, 'webhook detail');
      await f.shot('test-sent');
    });
    await f.step('the test is in the delivery log; Resend repeats its id, Replay sends a new one', async () => {
      const testId = deliveryIds()[1]!;
      await f.page.waitForSelector(`tr[data-delivery-id="${testId}"]`);
      await clickButton(f.page, 'Resend', `tr[data-delivery-id="${testId}"]`);
      await receiver.waitFor((r) => r.length >= 3, 10_000);
      expect(deliveryIds()[2]).toBe(testId);
      await waitForText(f.page, 'Resent: delivery');
      await clickButton(f.page, 'Replay', `tr[data-delivery-id="${testId}"]`);
      await receiver.waitFor((r) => r.length >= 4, 10_000);
      const replayId = deliveryIds()[3]!;
      expect(replayId).not.toBe(testId);
      expect(receiver.received[3]!.body.toString()).toContain('Grace Hopper');
      await f.page.waitForSelector(`tr[data-delivery-id="${replayId}"]`);
      await f.shot('log');
    });
    await f.step('pause, then resume by hand', async () => {
      await clickButton(f.page, 'Pause');
      await f.page.waitForFunction(() => document.querySelector('.page-head .badge')?.textContent === 'Paused');
      await waitForText(f.page, 'by hand');
      await f.shot('paused');
      await clickButton(f.page, 'Resume');
      await f.page.waitForFunction(() => document.querySelector('.page-head .badge')?.textContent === 'Active');
    });
  } finally {
    await f.close();
  }
});

test('every page passes axe and fits a 390 px wide viewport', async () => {
  const f = await flow(browser, 'narrow', 390);
  try {
    await f.step('sign-in page', async () => {
      await f.page.goto(`${platform.chatUrl}/console/`);
      await f.page.waitForSelector('#token');
      await expectAccessible(f, 'sign-in at 390');
      expect(await overflowsHorizontally(f.page)).toBe(false);
      await f.shot('sign-in');
    });
    await f.step('sign in by pasting a token', async () => {
      await f.page.type('#token', owner.token);
      await clickButton(f.page, 'Sign in');
      await waitForText(f.page, 'Acme settings');
      await expectAccessible(f, 'workspace picker at 390');
    });
    for (const page of ['api-keys', 'svc-keys', 'audit', 'webhooks']) {
      await f.step(`${page} at 390 px`, async () => {
        await f.page.evaluate((r) => (location.hash = r), `#/w/${workspaceId}/${page}`);
        await f.page.waitForSelector('#page-title');
        await f.page.waitForFunction(() => !document.querySelector('[role=status]')?.textContent?.startsWith('Loading'));
        await expectAccessible(f, `${page} at 390`);
        expect(await overflowsHorizontally(f.page)).toBe(false);
        await f.shot(page);
      });
    }
  } finally {
    await f.close();
  }
});
