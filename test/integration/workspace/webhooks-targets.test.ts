// WEBHOOK_ALLOW_PRIVATE_TARGETS=false (the default): loopback, private and link-local targets are refused when a
// webhook is saved, judged on the addresses its host resolves to, and again before every delivery attempt, so a
// webhook saved while its name pointed elsewhere (or by a node that allowed it) still never reaches such an address.
import { count } from '../../helpers/expect.js';
import { expectSvcError } from '../../helpers/workspace-expect.js';
import type { TestPlatform } from '../../support/platform.js';
import { svcWorkspace, type SvcWorkspace } from '../../support/workspace.js';
import { emitEvent, eventually, requestsOf, svc, webhookRig, type WebhookRig } from '../../support/webhooks.js';

let rig: WebhookRig;
let platform: TestPlatform;
let ws: SvcWorkspace;
let key: string;

beforeAll(async () => {
  rig = await webhookRig({ allowPrivateTargets: false });
  platform = rig.platform;
  ws = await svcWorkspace(platform);
  key = (await ws.key(['webhook.*'])).key;
});
afterAll(async () => {
  await rig?.stop();
});

test('saving a loopback, private or link-local target is 400 that names no resolved address; nothing is stored or sent', async () => {
  const port = rig.receiver.port;
  const targets = [
    `https://127.0.0.1:${port}/hook`,
    `https://localhost:${port}/hook`,
    `https://[::1]:${port}/hook`,
    `https://[::ffff:127.0.0.1]:${port}/hook`,
    'https://10.1.2.3/hook',
    'https://192.168.0.10/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[fe80::1]/hook',
    'https://[fd12::1]/hook',
    'https://0.0.0.0/hook',
    `https://2130706433:${port}/hook`,
    `https://[::127.0.0.1]:${port}/hook`,
    'https://[64:ff9b::a00:1]/hook',
  ];
  const answers: Array<{ url: string; message: string }> = [];
  for (const url of targets) {
    const res = await svc(platform, key, 'POST', '/api/v1/webhooks', { name: 'inside', url, events: ['lead.created'] });
    expectSvcError(res, 400, 'invalid_request', 'body.url');
    expect(res.body.message).toMatch(/private, loopback, link-local or reserved|this machine/);
    answers.push({ url, message: res.body.message });
  }
  // What localhost resolves to is not the caller's to learn.
  const byName = answers.filter(({ url }) => url.includes('localhost'));
  expect(byName).toHaveLength(1);
  for (const { message } of byName) expect(message).not.toMatch(/127\.0\.0\.1|::1/);
  expect(await count(platform.db, 'select count(*) as n from webhooks where workspace_id = $1', [ws.id])).toBe(0);
  expect(rig.receiver.received).toHaveLength(0);
});

test('a webhook whose target became private is refused at delivery time: no request reaches it', async () => {
  // Another node that allows private targets saves it (its ping gets through); this node's workers do not.
  const lenient = await rig.node({ services: ['workspace'] }, { allowPrivateTargets: true });
  const created = await svc(lenient, key, 'POST', '/api/v1/webhooks', {
    name: 'moved',
    url: `${rig.receiver.origin}/moved`,
    events: ['lead.created'],
  });
  expect(created.body.status).toBe('Active');
  expect(rig.receiver.received).toHaveLength(1);

  await emitEvent(platform.db, { workspaceId: ws.id, event: 'lead.created' });
  const row = await eventually(async () => {
    const { rows } = await platform.db.query(
      "select id, status, attempt_count, error from webhook_deliveries where webhook_id = $1 and kind = 'event' and attempt_count >= 2",
      [created.body.id],
    );
    return rows[0];
  });
  expect(row.error).toMatch(/^target_refused: .*private, loopback, link-local or reserved/);
  expect(requestsOf(rig.receiver, row.id)).toHaveLength(0);
  expect(rig.receiver.received).toHaveLength(1);
  // Refusals count as failed attempts: the test operation of this node is refused the same way.
  const tested = await svc(platform, key, 'POST', `/api/v1/webhooks/${created.body.id}/test`, { event: 'lead.created' });
  expect(tested.body).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/^target_refused/) });
  expect(rig.receiver.received).toHaveLength(1);
});
