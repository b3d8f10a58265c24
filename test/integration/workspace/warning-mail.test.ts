// The pause warning reaches a real mailbox: an account's e-mail is given at registration or by a metadata update on
// the chat API, a workspace's Owner or Admin sets its notification address on the workspace API, and a webhook
// paused after failed deliveries is reported to the Owner's account e-mail and to that address as well, through real
// SMTP.
// Bad addresses are refused in each interface's envelope and change nothing.
import { randomUUID } from 'node:crypto';
import { expectError, expectOk } from '../../helpers/expect.js';
import { expectSvcError } from '../../helpers/workspace-expect.js';
import { call, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace, type SvcWorkspace } from '../../support/workspace.js';
import { emitEvent, eventually, svc, webhookRig, type WebhookRig } from '../../support/webhooks.js';

let rig: WebhookRig;
let platform: TestPlatform;
let admin: string;

beforeAll(async () => {
  rig = await webhookRig({}, { services: ['chat', 'workspace', 'partner', 'workers'] });
  platform = rig.platform;
  admin = await platform.adminToken();
  rig.receiver.respond((r) => ({ status: r.headers['x-svc-event'] === 'ping' ? 200 : 503, body: 'down' }));
});
afterAll(async () => {
  await rig?.stop();
});

const notifications = (ws: SvcWorkspace, who: TestAccount, method = 'GET', body?: unknown) =>
  call(platform.workspaceUrl, method, `/api/v1/workspaces/${ws.id}/notifications`, {
    token: who.token,
    ...(body === undefined ? {} : { body }),
  });
const storedEmail = async (accountId: string) =>
  (await platform.db.query('select email from accounts where id = $1', [accountId])).rows[0].email;
const storedNotification = async (workspaceId: string) =>
  (await platform.db.query('select notification_email from workspaces where id = $1', [workspaceId])).rows[0].notification_email;

/** A webhook of the workspace on a receiver that always fails; the event that pauses it is emitted right away. */
async function pausedWebhook(ws: SvcWorkspace): Promise<string> {
  const key = (await ws.key(['webhook.*'])).key;
  const res = await svc(platform, key, 'POST', '/api/v1/webhooks', {
    name: `hook ${ws.id}`,
    url: `${rig.receiver.origin}/down/${ws.id}`,
    events: ['lead.created'],
  });
  expect(res.status).toBe(201);
  await emitEvent(platform.db, { workspaceId: ws.id, event: 'lead.created' });
  return res.body.id as string;
}

const mailFor = (webhookId: string) =>
  eventually(async () => rig.smtp.mails.find((m) => m.text.includes(webhookId)), 30_000, `the warning mail of ${webhookId}`);

test('the account e-mail from registration and metadata update receives the warning when no notification address is set', async () => {
  const ws = await svcWorkspace(platform);
  const owner = ws.owner;
  const account = (await platform.db.query('select module_code, customer_account_id, display_name from accounts where id = $1', [owner.id]))
    .rows[0];
  const registered = await call(platform.chatUrl, 'POST', '/api/v1/accounts/register', {
    token: admin,
    body: {
      id: owner.id,
      moduleCode: account.module_code,
      customerAccountId: account.customer_account_id,
      displayName: account.display_name,
      email: 'first@example.com',
    },
  });
  expectOk(registered);
  expect(registered.body.data.email).toBe('first@example.com');
  // Re-registration without email keeps it; the metadata update replaces it.
  const again = await call(platform.chatUrl, 'POST', '/api/v1/accounts/register', {
    token: admin,
    body: { id: owner.id, moduleCode: account.module_code, customerAccountId: account.customer_account_id, displayName: 'Owner' },
  });
  expect(again.body.data.email).toBe('first@example.com');
  const updated = await call(platform.chatUrl, 'PATCH', `/api/v1/accounts/${owner.id}/metadata`, {
    token: admin,
    body: { email: `owner-${ws.id}@example.com` },
  });
  expectOk(updated);
  expect(updated.body.data).toMatchObject({ email: `owner-${ws.id}@example.com`, displayName: 'Owner' });

  const read = await notifications(ws, owner);
  expect(read.status).toBe(200);
  expect(read.body).toEqual({ workspace_id: ws.id, email: null, recipients: [`owner-${ws.id}@example.com`] });

  const webhookId = await pausedWebhook(ws);
  const mail = await mailFor(webhookId);
  expect(mail.to).toEqual([`owner-${ws.id}@example.com`]);
  expect(mail.subject).toBe(`Webhook "hook ${ws.id}" was paused after 6 failed delivery attempts`);
  expect(mail.text).toContain('Hello Owner,');
});

test("the workspace's notification address, set by an Admin, receives the warning as well as the Owner", async () => {
  const ws = await svcWorkspace(platform);
  await platform.db.query('update accounts set email = $2 where id = $1', [ws.owner.id, `owner-${ws.id}@example.com`]);
  const admin = await ws.member('admin');
  const set = await notifications(ws, admin, 'PUT', { email: `alerts-${ws.id}@example.com` });
  expect(set.status).toBe(200);
  expect(set.body).toEqual({
    workspace_id: ws.id,
    email: `alerts-${ws.id}@example.com`,
    recipients: [`owner-${ws.id}@example.com`, `alerts-${ws.id}@example.com`],
  });
  expect((await notifications(ws, ws.owner)).body.email).toBe(`alerts-${ws.id}@example.com`);

  const webhookId = await pausedWebhook(ws);
  const mail = await mailFor(webhookId);
  // An additional recipient, not a replacement: one mail to both, the Owner greeted by name.
  expect(mail.to).toEqual([`owner-${ws.id}@example.com`, `alerts-${ws.id}@example.com`]);
  const owner = await platform.db.query('select display_name from accounts where id = $1', [ws.owner.id]);
  expect(mail.text).toContain(`Hello ${owner.rows[0].display_name},`);

  // Cleared: warnings go to the Owner's account e-mail only.
  const cleared = await notifications(ws, ws.owner, 'PUT', { email: null });
  expect(cleared.body).toEqual({ workspace_id: ws.id, email: null, recipients: [`owner-${ws.id}@example.com`] });
});

test('bad addresses are refused in each envelope and change nothing', async () => {
  const ws = await svcWorkspace(platform);
  await notifications(ws, ws.owner, 'PUT', { email: 'kept@example.com' });
  const tooLong = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`;
  expect(tooLong.length).toBe(255);
  for (const email of ['not-an-address', 'a@', tooLong, 42]) {
    expectSvcError(await notifications(ws, ws.owner, 'PUT', { email }), 400, 'invalid_request');
  }
  expectSvcError(await notifications(ws, ws.owner, 'PUT', {}), 400, 'invalid_request');
  expect(await storedNotification(ws.id)).toBe('kept@example.com');

  const account = (await platform.db.query('select module_code, customer_account_id from accounts where id = $1', [ws.owner.id])).rows[0];
  for (const email of ['not-an-address', tooLong]) {
    const register = await call(platform.chatUrl, 'POST', '/api/v1/accounts/register', {
      token: admin,
      body: {
        id: randomUUID(),
        moduleCode: account.module_code,
        customerAccountId: account.customer_account_id,
        displayName: 'Nobody',
        email,
      },
    });
    expectError(register, 400, 'validation_failed', 'body.email');
    expectError(
      await call(platform.chatUrl, 'PATCH', `/api/v1/accounts/${ws.owner.id}/metadata`, { token: admin, body: { email } }),
      400,
      'validation_failed',
      'body.email',
    );
  }
  expect(await storedEmail(ws.owner.id)).toBeNull();
  expect((await platform.db.query("select count(*)::int as n from accounts where display_name = 'Nobody'")).rows[0].n).toBe(0);
  // 254 characters is the longest address taken.
  const longest = tooLong.slice(1);
  expect((await notifications(ws, ws.owner, 'PUT', { email: longest })).body.email).toBe(longest);
});

test('only the Owner and Admin manage the notification address; a non-member learns nothing', async () => {
  const ws = await svcWorkspace(platform);
  const staff = await ws.member('staff');
  expectSvcError(await notifications(ws, staff), 403, 'forbidden');
  expectSvcError(await notifications(ws, staff, 'PUT', { email: 'staff@example.com' }), 403, 'forbidden');
  const outsider = await ws.tenant.account();
  expectSvcError(await notifications(ws, outsider, 'PUT', { email: 'outsider@example.com' }), 404, 'not_found');
  expectSvcError(
    await call(platform.workspaceUrl, 'PUT', `/api/v1/workspaces/${ws.id}/notifications`, { body: { email: 'anon@example.com' } }),
    401,
    'unauthorized',
  );
  expect(await storedNotification(ws.id)).toBeNull();
});
