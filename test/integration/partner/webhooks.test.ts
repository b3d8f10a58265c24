// The partner API's /api/v1/webhooks and /api/v1/webhook-deliveries (X-Api-Key, webhooks:read and webhooks:manage)
// are served by the workspace API's engine and tables: a partner key registers a webhook for lead events, and both
// APIs see the same webhooks and deliveries.
import { randomUUID } from 'node:crypto';
import { count } from '../../helpers/expect.js';
import { expectPartnerError, keyHeaders } from '../../helpers/partner-expect.js';
import { call, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace, type SvcWorkspace } from '../../support/workspace.js';
import { deduplicatedByBodyId, emitEvent, eventually, requestsOf, svc, webhookRig, type WebhookRig } from '../../support/webhooks.js';
import { verifyWebhook } from '../../../sdk/workspace/src/index.js';
import { newSecret } from '../../../src/partner/api-keys/secret.js';
import { newId } from '../../../src/platform/ids.js';
import { hasEventWith } from '../../helpers/received.js';
import { holds } from '../../helpers/wait.js';

let rig: WebhookRig;
let platform: TestPlatform;
let ws: SvcWorkspace;
let manager: string;

beforeAll(async () => {
  rig = await webhookRig();
  platform = rig.platform;
  ws = await svcWorkspace(platform);
  manager = await partnerKey(['webhooks:manage', 'webhooks:read', 'crm_leads:*']);
});
afterAll(async () => {
  await rig?.stop();
});

/** An API key of the svc workspace (partner keys and svc_ keys share workspaces). */
async function partnerKey(scopes: string[], environment: 'live' | 'test' = 'live'): Promise<string> {
  const secret = newSecret(environment);
  await platform.db.query(
    `insert into api_keys (id, workspace_id, name, prefix, key_hash, environment, scopes, status, created_by) values ($1, $2, 'k', $3, $4, $5, $6, 'active', $7)`,
    [newId(), ws.id, secret.prefix, secret.hash, environment, scopes, ws.owner.id],
  );
  return secret.key;
}

const partner = (method: string, path: string, key: string, body?: unknown, idempotencyKey?: string) =>
  call(platform.partnerUrl, method, path, {
    headers: keyHeaders(key, idempotencyKey ?? (method === 'GET' ? undefined : randomUUID())),
    ...(body !== undefined ? { body } : {}),
  });

test('a partner key registers a webhook for lead events; Idempotency-Key repeats answer the first result', async () => {
  const idem = randomUUID();
  const body = { name: 'Lead feed', url: `${rig.receiver.origin}/partner`, events: ['lead.created', 'lead.assigned'] };
  const res = await partner('POST', '/api/v1/webhooks', manager, body, idem);
  expect(res.status).toBe(201);
  expect(res.headers.get('location')).toBe(`/api/v1/webhooks/${res.body.id}`);
  expect(res.body).toMatchObject({
    object: 'webhook_endpoint',
    name: 'Lead feed',
    events: ['lead.created', 'lead.assigned'],
    status: 'active',
    environment: 'live',
    ping: { object: 'webhook_send_result', ok: true, status: 200 },
  });
  expect(res.body.secret).toMatch(/^whsec_/);
  const again = await partner('POST', '/api/v1/webhooks', manager, body, idem);
  expect(again.body).toEqual(res.body);
  expect(await count(platform.db, 'select count(*) as n from webhooks where workspace_id = $1', [ws.id])).toBe(1);

  // The same webhook through the workspace API, in its own convention.
  const svcKey = (await ws.key(['webhook.webhooks.read'])).key;
  const viaSvc = await svc(platform, svcKey, 'GET', `/api/v1/webhooks/${res.body.id}`);
  expect(viaSvc.body).toMatchObject({ id: res.body.id, status: 'Active', name: 'Lead feed' });

  const list = await partner('GET', '/api/v1/webhooks?limit=10', manager);
  expect(list.body).toEqual({
    object: 'list',
    data: [expect.objectContaining({ object: 'webhook_endpoint', id: res.body.id })],
    has_more: false,
    next_cursor: null,
  });

  // A lead event reaches it, signed; the delivery is listed and fetched through /webhook-deliveries.
  const emitted = await emitEvent(platform.db, { workspaceId: ws.id, event: 'lead.created', data: { id: 'lead-1', name: 'Ada' } });
  const delivery = await eventually(async () => {
    const page = await partner('GET', `/api/v1/webhook-deliveries?webhook_id=${res.body.id}&status=succeeded`, manager);
    return page.body.data.find((d: { event_id: string }) => d.event_id === emitted.id);
  });
  expect(delivery).toMatchObject({
    object: 'webhook_delivery',
    webhook_id: res.body.id,
    kind: 'event',
    event: 'lead.created',
    status: 'succeeded',
    attempt: 1,
  });
  expect(delivery.event_id).toBe(emitted.id);
  const [sent] = requestsOf(rig.receiver, delivery.event_id);
  await expect(verifyWebhook({ rawBody: sent!.body, headers: sent!.headers, secret: res.body.secret })).resolves.toMatchObject({
    envelope: { id: emitted.id },
  });
  expect((await partner('GET', `/api/v1/webhook-deliveries/${delivery.id}`, manager)).body).toEqual(delivery);

  const resent = await partner('POST', `/api/v1/webhook-deliveries/${delivery.id}/resend`, manager);
  expect(resent.status).toBe(202);
  expect(resent.body).toMatchObject({ object: 'webhook_delivery', id: delivery.id, status: 'pending' });
  await rig.receiver.waitFor(() => requestsOf(rig.receiver, delivery.event_id).length === 2);
  const replayed = await partner('POST', `/api/v1/webhook-deliveries/${delivery.id}/replay`, manager);
  expect(replayed.body).toMatchObject({ kind: 'replay', replay_of: delivery.id });
  await rig.receiver.waitFor(() => requestsOf(rig.receiver, replayed.body.event_id).length === 1);
  // A receiver that de-duplicates on the body's id processed the event and the replay, and skipped the resend.
  const path = new URL(res.body.url).pathname;
  expect(deduplicatedByBodyId(rig.receiver, path)).toEqual({ processed: [emitted.id, replayed.body.event_id], skipped: [emitted.id] });
});

test('scopes: webhooks:read reads, webhooks:manage writes, CRM scopes get nothing', async () => {
  const reader = await partnerKey(['webhooks:read']);
  expect((await partner('GET', '/api/v1/webhooks', reader)).status).toBe(200);
  expect((await partner('GET', '/api/v1/webhook-deliveries', reader)).status).toBe(200);
  expectPartnerError(
    await partner('POST', '/api/v1/webhooks', reader, { name: 'x', url: `${rig.receiver.origin}/x`, events: ['lead.created'] }),
    403,
    'scope_required',
    { scope: 'webhooks:manage' },
  );
  const crm = await partnerKey(['crm_leads:*']);
  expectPartnerError(await partner('GET', '/api/v1/webhooks', crm), 403, 'scope_required', { scope: 'webhooks:read' });
  const star = await partnerKey(['webhooks:*']);
  expect(
    (await partner('POST', '/api/v1/webhooks', star, { name: 'star', url: `${rig.receiver.origin}/star`, events: ['deal.won'] })).status,
  ).toBe(201);
});

test('bad input is 400 bad_input with nothing stored; missing ones 404; a disabled one 409 webhook_disabled; delete', async () => {
  const before = await count(platform.db, 'select count(*) as n from webhooks where workspace_id = $1', [ws.id]);
  expectPartnerError(
    await partner('POST', '/api/v1/webhooks', manager, { name: 'x', url: 'http://example.com/x', events: ['lead.created'] }),
    400,
    'bad_input',
    { field: 'body.url' },
  );
  expectPartnerError(
    await partner('POST', '/api/v1/webhooks', manager, {
      name: 'x',
      url: `${rig.receiver.origin}/x`,
      events: ['lead.created'],
      headers: { 'X-SVC-Event': 'x' },
    }),
    400,
    'bad_input',
    { field: 'body.headers' },
  );
  expectPartnerError(
    await partner('POST', '/api/v1/webhooks', manager, { name: 'x', url: `${rig.receiver.origin}/x`, events: ['lead.nope'] }),
    400,
    'bad_input',
  );
  expect(await count(platform.db, 'select count(*) as n from webhooks where workspace_id = $1', [ws.id])).toBe(before);
  expectPartnerError(await partner('GET', `/api/v1/webhooks/${randomUUID()}`, manager), 404, 'webhook_not_found');
  expectPartnerError(await partner('GET', `/api/v1/webhook-deliveries/${randomUUID()}`, manager), 404, 'delivery_not_found');

  const hook = (
    await partner('POST', '/api/v1/webhooks', manager, { name: 'tmp', url: `${rig.receiver.origin}/tmp`, events: ['lead.created'] })
  ).body;
  expect((await partner('POST', `/api/v1/webhooks/${hook.id}/pause`, manager)).body).toMatchObject({
    status: 'paused',
    paused_reason: 'manual',
  });
  expect((await partner('GET', '/api/v1/webhooks?status=paused', manager)).body.data.map((w: { id: string }) => w.id)).toEqual([hook.id]);
  expect((await partner('POST', `/api/v1/webhooks/${hook.id}/resume`, manager)).body).toMatchObject({ status: 'active' });
  expect((await partner('POST', `/api/v1/webhooks/${hook.id}/test`, manager, { event: 'lead.assigned' })).body).toMatchObject({
    object: 'webhook_send_result',
    ok: true,
    status: 200,
  });
  expect((await partner('POST', `/api/v1/webhooks/${hook.id}/disable`, manager)).body.status).toBe('disabled');
  expectPartnerError(await partner('PATCH', `/api/v1/webhooks/${hook.id}`, manager, { name: 'renamed' }), 409, 'webhook_disabled');
  const deleted = await partner('DELETE', `/api/v1/webhooks/${hook.id}`, manager);
  expect(deleted.body).toEqual({ object: 'webhook_endpoint', id: hook.id, deleted: true });
  expectPartnerError(await partner('GET', `/api/v1/webhooks/${hook.id}`, manager), 404, 'webhook_not_found');
});

test('test keys register test webhooks, which live events never reach', async () => {
  const testKey = await partnerKey(['webhooks:manage', 'webhooks:read'], 'test');
  const hook = (
    await partner('POST', '/api/v1/webhooks', testKey, { name: 'sandbox', url: `${rig.receiver.origin}/sandbox`, events: ['lead.updated'] })
  ).body;
  expect(hook.environment).toBe('test');
  expectPartnerError(await partner('GET', `/api/v1/webhooks/${hook.id}`, manager), 404, 'webhook_not_found');
  const live = await emitEvent(platform.db, { workspaceId: ws.id, event: 'lead.updated', environment: 'live' });
  const test = await emitEvent(platform.db, { workspaceId: ws.id, event: 'lead.updated', environment: 'test' });
  await eventually(async () =>
    holds(
      (await count(platform.db, 'select count(*) as n from webhook_deliveries where webhook_id = $1 and status = $2', [
        hook.id,
        'succeeded',
      ])) >= 2,
    ),
  );
  const ids = (
    await platform.db.query("select event_id from webhook_deliveries where webhook_id = $1 and kind = 'event'", [hook.id])
  ).rows.map((r) => r.event_id);
  expect(ids).toEqual([test.id]);
  expect(ids).not.toContain(live.id);
});

test('a lead created through the partner API writes lead.created and reaches the webhook', async () => {
  const res = await partner('POST', '/api/v1/partner/crm/leads', manager, { full_name: 'Grace Hopper' });
  expect(res.status).toBe(201);
  const emitted = await count(
    platform.db,
    "select count(*) as n from outbox where topic = 'svc.event' and payload->'envelope'->'data'->>'id' = $1",
    [res.body.id],
  );
  expect(emitted).toBe(1);
  await rig.receiver.waitFor((r) => hasEventWith(r, 'lead.created', res.body.id));
});
