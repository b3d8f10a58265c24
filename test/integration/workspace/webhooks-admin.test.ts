// Webhook administration by people: /api/v1/workspaces/{workspace_id}/webhooks with a bearer JWT, against a real
// HTTPS receiver. The Owner and Admin manage the same webhooks as svc_ keys (every environment); the cells of key
// administration hold for every operation: a Member (manager, staff, a custom role) 403 forbidden, a non-member 404,
// no or a bad token 401, a svc_ key 403; refused calls change nothing.
import { count } from '../../helpers/expect.js';
import { expectSvcError, svcHeaders } from '../../helpers/workspace-expect.js';
import { call, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace, type SvcWorkspace } from '../../support/workspace.js';
import { deduplicatedByBodyId, emitEvent, eventually, requestsOf, svc, webhookRig, type WebhookRig } from '../../support/webhooks.js';
import { optional } from '../../helpers/data.js';

let rig: WebhookRig;
let platform: TestPlatform;
let ws: SvcWorkspace;

beforeAll(async () => {
  rig = await webhookRig();
  platform = rig.platform;
  ws = await svcWorkspace(platform);
});
afterAll(async () => {
  await rig?.stop();
});
beforeEach(() => rig.receiver.respond(() => ({ status: 200, body: 'ok' })));

const base = () => platform.workspaceUrl;
const hooksPath = (workspaceId = ws.id) => `/api/v1/workspaces/${workspaceId}/webhooks`;
const as = (who: TestAccount | string, method: string, path: string, body?: unknown) =>
  call(base(), method, path, { token: typeof who === 'string' ? who : who.token, ...(body !== undefined ? { body } : {}) });
const webhookRows = (workspaceId = ws.id) =>
  count(platform.db, 'select count(*) as n from webhooks where workspace_id = $1', [workspaceId]);
const createBody = (extra: Record<string, unknown> = {}) => ({
  name: 'ERP feed',
  url: `${rig.receiver.origin}/people`,
  events: ['deal.won'],
  ...extra,
});

test('the Owner creates, reads, edits, pauses, resumes, tests and deletes; an Admin too; svc_ keys see the same webhook', async () => {
  const created = await as(ws.owner, 'POST', hooksPath(), createBody({ headers: { 'X-Team': 'sales' } }));
  expect(created.status).toBe(201);
  expect(created.headers.get('location')).toBe(`${hooksPath()}/${created.body.id}`);
  expect(created.body).toMatchObject({ name: 'ERP feed', status: 'Active', environment: 'live', ping: { ok: true, status: 200 } });
  expect(created.body.secret).toMatch(/^whsec_/);
  const id = created.body.id;
  const row = (await platform.db.query('select created_via, created_by_key, created_by_account from webhooks where id = $1', [id])).rows[0];
  expect(row).toEqual({ created_via: 'account', created_by_key: null, created_by_account: ws.owner.id });

  // The key surface serves the same webhook to a live key of the workspace.
  const key = (await ws.key(['webhook.webhooks.read'])).key;
  expect((await svc(platform, key, 'GET', `/api/v1/webhooks/${id}`)).body).toMatchObject({ id, name: 'ERP feed' });

  const admin = await ws.member('admin');
  expect((await as(admin, 'GET', hooksPath())).body.items.map((w: { id: string }) => w.id)).toContain(id);
  expect((await as(admin, 'GET', `${hooksPath()}/${id}`)).body).toMatchObject({ id, headers: { 'X-Team': 'sales' } });
  expect((await as(admin, 'PATCH', `${hooksPath()}/${id}`, { name: 'ERP feed 2' })).body).toMatchObject({ name: 'ERP feed 2' });
  expect((await as(admin, 'POST', `${hooksPath()}/${id}/pause`)).body).toMatchObject({ status: 'Paused', paused_reason: 'manual' });
  expect((await as(ws.owner, 'POST', `${hooksPath()}/${id}/resume`)).body).toMatchObject({ status: 'Active' });
  const tested = await as(admin, 'POST', `${hooksPath()}/${id}/test`, { event: 'deal.won' });
  expect(tested.body).toMatchObject({ ok: true, status: 200, event_id: expect.stringMatching(/^evt_/) });

  // The log, resend and replay: a receiver de-duplicating on the body's id skips the resend, processes the replay.
  const emitted = await emitEvent(platform.db, { workspaceId: ws.id, event: 'deal.won' });
  const delivery = await eventually(async () => {
    const log = await as(ws.owner, 'GET', `${hooksPath()}/${id}/deliveries?status=succeeded`);
    return log.body.items.find((d: { event_id: string }) => d.event_id === emitted.id);
  });
  expect((await as(ws.owner, 'POST', `${hooksPath()}/${id}/deliveries/${delivery.id}/resend`)).status).toBe(202);
  await rig.receiver.waitFor(() => requestsOf(rig.receiver, emitted.id).length === 2);
  const replayed = await as(admin, 'POST', `${hooksPath()}/${id}/deliveries/${delivery.id}/replay`);
  expect(replayed.status).toBe(202);
  await rig.receiver.waitFor(() => requestsOf(rig.receiver, replayed.body.event_id).length === 1);
  expect(deduplicatedByBodyId(rig.receiver, '/people').processed).toEqual([tested.body.event_id, emitted.id, replayed.body.event_id]);

  expect((await as(admin, 'POST', `${hooksPath()}/${id}/disable`)).body).toMatchObject({ status: 'Disabled' });
  expectSvcError(await as(admin, 'PATCH', `${hooksPath()}/${id}`, { name: 'x' }), 409, 'conflict');
  expect((await as(ws.owner, 'DELETE', `${hooksPath()}/${id}`)).status).toBe(204);
  expectSvcError(await as(ws.owner, 'GET', `${hooksPath()}/${id}`), 404, 'not_found');
});

test('people see every environment: a test webhook is created and listed with environment test', async () => {
  const own = await svcWorkspace(platform);
  const created = await as(own.owner, 'POST', hooksPath(own.id), createBody({ environment: 'test' }));
  expect(created.body.environment).toBe('test');
  expect((await as(own.owner, 'GET', hooksPath(own.id))).body.items).toEqual([]);
  expect((await as(own.owner, 'GET', `${hooksPath(own.id)}?environment=test`)).body.items.map((w: { id: string }) => w.id)).toEqual([
    created.body.id,
  ]);
  // Found by id whatever its environment; a test key sees it, a live key does not.
  expect((await as(own.owner, 'GET', `${hooksPath(own.id)}/${created.body.id}`)).status).toBe(200);
  expect(
    (await svc(platform, (await own.key(['webhook.*'], { environment: 'test' })).key, 'GET', `/api/v1/webhooks/${created.body.id}`)).status,
  ).toBe(200);
  expectSvcError(await svc(platform, (await own.key(['webhook.*'])).key, 'GET', `/api/v1/webhooks/${created.body.id}`), 404, 'not_found');
});

/** Every operation of the surface, as [method, path, body] for the webhook `id` and its delivery `deliveryId`. */
function operations(workspaceId: string, id: string, deliveryId: string): Array<[string, string, unknown?]> {
  const one = `/api/v1/workspaces/${workspaceId}/webhooks/${id}`;
  return [
    ['POST', `/api/v1/workspaces/${workspaceId}/webhooks`, createBody()],
    ['GET', `/api/v1/workspaces/${workspaceId}/webhooks`],
    ['GET', one],
    ['PATCH', one, { url: `${rig.receiver.origin}/stolen` }],
    ['DELETE', one],
    ['POST', `${one}/pause`],
    ['POST', `${one}/resume`],
    ['POST', `${one}/disable`],
    ['POST', `${one}/test`, { event: 'deal.won' }],
    ['GET', `${one}/deliveries`],
    ['POST', `${one}/deliveries/${deliveryId}/resend`],
    ['POST', `${one}/deliveries/${deliveryId}/replay`],
  ];
}

describe('who may administer webhooks', () => {
  let hook: { id: string; deliveryId: string };
  const state = async () =>
    (
      await platform.db.query(
        'select name, url, status, (select count(*)::int from webhook_deliveries d where d.webhook_id = w.id) as deliveries from webhooks w where id = $1',
        [hook.id],
      )
    ).rows[0];

  beforeAll(async () => {
    const created = await as(ws.owner, 'POST', hooksPath(), createBody({ name: 'guarded' }));
    hook = { id: created.body.id, deliveryId: created.body.ping.delivery_id };
  });

  test('a Member (manager, staff, a custom role) gets 403 forbidden on every operation; nothing changes or is shown', async () => {
    await platform.db.query('insert into workspace_roles (workspace_id, name) values ($1, $2) on conflict do nothing', [ws.id, 'auditor']);
    const before = { rows: await webhookRows(), hook: await state() };
    for (const role of ['manager', 'staff', 'auditor']) {
      const member = await ws.member(role);
      for (const [method, path, body] of operations(ws.id, hook.id, hook.deliveryId)) {
        const res = await as(member, method, path, body);
        expectSvcError(res, 403, 'forbidden', 'Owner and Admin');
        expect(JSON.stringify(res.body)).not.toContain(hook.id);
      }
    }
    expect({ rows: await webhookRows(), hook: await state() }).toEqual(before);
  });

  test("a non-member gets 404 on every operation; another workspace's webhook is 404 to this Owner", async () => {
    const stranger = await ws.tenant.account();
    const before = { rows: await webhookRows(), hook: await state() };
    for (const [method, path, body] of operations(ws.id, hook.id, hook.deliveryId))
      expectSvcError(await as(stranger, method, path, body), 404, 'not_found');
    const other = await svcWorkspace(platform);
    for (const [method, path, body] of operations(other.id, hook.id, hook.deliveryId).slice(2))
      expectSvcError(await as(other.owner, method, path, body), 404, 'not_found');
    expect({ rows: await webhookRows(), hook: await state() }).toEqual(before);
  });

  test('no token or a bad token: 401; a svc_ key, even with webhook.* or admin: 403 (people only)', async () => {
    const before = { rows: await webhookRows(), hook: await state() };
    const adminKey = (await ws.key(['admin', 'webhook.*'])).key;
    for (const [method, path, body] of operations(ws.id, hook.id, hook.deliveryId)) {
      expectSvcError(await call(base(), method, path, optional('body', body)), 401, 'unauthorized');
      expectSvcError(await as('not.a.jwt', method, path, body), 401, 'unauthorized');
      expectSvcError(await call(base(), method, path, { headers: svcHeaders(adminKey), ...optional('body', body) }), 403, 'forbidden');
    }
    expect({ rows: await webhookRows(), hook: await state() }).toEqual(before);
  });

  test('bad input is 400 invalid_request naming the field, and nothing is stored', async () => {
    const before = await webhookRows();
    for (const [body, field] of [
      [createBody({ url: 'http://example.com/hook' }), 'body.url'],
      [createBody({ events: ['no.such'] }), 'body.events'],
      [createBody({ environment: 'prod' }), 'body.environment'],
    ] as const)
      expectSvcError(await as(ws.owner, 'POST', hooksPath(), body), 400, 'invalid_request', field);
    expectSvcError(await as(ws.owner, 'GET', `${hooksPath()}?environment=prod`), 400, 'invalid_request', 'query.environment');
    expect(await webhookRows()).toBe(before);
  });
});
