// /api/v1/webhooks of the workspace API against a real HTTPS receiver: registration with its signed ping (Active or
// Unverified), the secret shown once and stored encrypted, reads, changes, pause/resume/disable, the test operation,
// scopes, environments, and bad input answered 4xx {error, message} with nothing changed.
import { count } from '../../helpers/expect.js';
import { expectSvcError } from '../../helpers/workspace-expect.js';
import { svcWorkspace, type SvcWorkspace } from '../../support/workspace.js';
import { emitEvent, eventually, svc, webhookRig, type WebhookRig } from '../../support/webhooks.js';
import { verifyWebhook } from '../../../sdk/workspace/src/index.js';
import type { TestPlatform } from '../../support/platform.js';
import type { Responder } from '../../support/webhook-receiver.js';
import { holds } from '../../helpers/wait.js';
import { requestsMatching } from '../../helpers/received.js';

let rig: WebhookRig;
let platform: TestPlatform;
let ws: SvcWorkspace;
let key: string;

beforeAll(async () => {
  rig = await webhookRig();
  platform = rig.platform;
  ws = await svcWorkspace(platform);
  key = (await ws.key(['webhook.*'])).key;
});
afterAll(async () => {
  await rig?.stop();
});
beforeEach(() => rig.receiver.respond(() => ({ status: 200, body: 'ok' })));

const hookUrl = (path = '/hooks') => `${rig.receiver.origin}${path}`;
const webhookCount = () => count(platform.db, 'select count(*) as n from webhooks where workspace_id = $1', [ws.id]);

async function create(body: Record<string, unknown>, k = key) {
  return svc(platform, k, 'POST', '/api/v1/webhooks', { name: 'CRM sync', url: hookUrl(), events: ['lead.created'], ...body });
}

describe('create', () => {
  test('201 with the secret shown once; the signed ping answered 2xx makes it Active', async () => {
    const before = rig.receiver.received.length;
    const ok = await create({
      description: 'to the ERP',
      headers: { 'X-SVC-Webhook-Version': 'v1' },
      events: ['lead.created', 'deal.won', 'lead.created'],
    });
    expect(ok.status).toBe(201);
    expect(ok.headers.get('location')).toBe(`/api/v1/webhooks/${ok.body.id}`);
    expect(ok.body).toMatchObject({
      name: 'CRM sync',
      url: hookUrl(),
      events: ['lead.created', 'deal.won'],
      description: 'to the ERP',
      headers: { 'X-SVC-Webhook-Version': 'v1' },
      status: 'Active',
      paused_reason: null,
      environment: 'live',
      consecutive_failures: 0,
    });
    expect(ok.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(ok.body.secret_last_four).toBe(ok.body.secret.slice(-4));
    expect(ok.body.ping).toMatchObject({ ok: true, status: 200, body: 'ok', error: null });

    // The ping: signed like every delivery, event "ping", verified by the SDK helper over the raw bytes.
    const pings = rig.receiver.received.slice(before).filter((r) => r.headers['x-svc-delivery'] === ok.body.ping.event_id);
    expect(pings).toHaveLength(1);
    const ping = pings[0]!;
    expect(ping.path).toBe('/hooks');
    expect(ping.headers['x-svc-event']).toBe('ping');
    expect(ping.headers['x-svc-webhook-version']).toBe('v1');
    const verified = await verifyWebhook({
      rawBody: ping.body,
      headers: ping.headers,
      secret: ok.body.secret,
      requireTimestampSignature: true,
    });
    expect(verified.envelope).toMatchObject({ event: 'ping', workspace_id: ws.id, api_version: 'v1', data: { webhook_id: ok.body.id } });

    // Never shown again; stored encrypted (the plain secret appears nowhere in the row).
    const got = await svc(platform, key, 'GET', `/api/v1/webhooks/${ok.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body.secret).toBeUndefined();
    expect(got.body.ping).toBeUndefined();
    const { rows } = await platform.db.query('select secret_ciphertext, row_to_json(w)::text as json from webhooks w where id = $1', [
      ok.body.id,
    ]);
    expect(rows[0].json).not.toContain(ok.body.secret.slice(6));
    expect(rows[0].secret_ciphertext.includes(Buffer.from(ok.body.secret))).toBe(false);
  });

  test('a ping that gets no 2xx saves it Unverified; a supplied secret signs', async () => {
    rig.receiver.respond(() => ({ status: 503, body: 'maintenance' }));
    const res = await create({ secret: 'my-own-secret-of-24-chars' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      status: 'Unverified',
      secret: 'my-own-secret-of-24-chars',
      ping: { ok: false, status: 503, body: 'maintenance', error: null },
    });
    // Its log holds the failed ping.
    const log = await svc(platform, key, 'GET', `/api/v1/webhooks/${res.body.id}/deliveries`);
    expect(log.body.items).toEqual([
      expect.objectContaining({
        id: res.body.ping.delivery_id,
        kind: 'ping',
        event: 'ping',
        status: 'failed',
        attempt: 1,
        response_status: 503,
        response_excerpt: 'maintenance',
      }),
    ]);
    const ping = rig.receiver.received.find((r) => r.headers['x-svc-delivery'] === res.body.ping.event_id)!;
    await expect(verifyWebhook({ rawBody: ping.body, headers: ping.headers, secret: 'my-own-secret-of-24-chars' })).resolves.toMatchObject({
      event: 'ping',
    });

    // A later 2xx (here the test operation) verifies it.
    rig.receiver.respond(() => ({ status: 204 }));
    const test = await svc(platform, key, 'POST', `/api/v1/webhooks/${res.body.id}/test`, { event: 'deal.won' });
    expect(test.body).toMatchObject({ ok: true, status: 204 });
    expect((await svc(platform, key, 'GET', `/api/v1/webhooks/${res.body.id}`)).body.status).toBe('Active');
  });

  test('bad input is 400 invalid_request naming the field, and nothing is stored', async () => {
    const before = await webhookCount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ url: 'http://127.0.0.1/hook' }, 'body.url'],
      [{ url: 'https://user:pw@127.0.0.1/hook' }, 'body.url'],
      [{ url: 'not a url' }, 'body.url'],
      [{ events: [] }, 'body.events'],
      [{ events: ['lead.exploded'] }, 'body.events'],
      [{ name: '   ' }, 'body.name'],
      [{ secret: 'short' }, 'body.secret'],
      [{ headers: { 'Content-Type': 'text/plain' } }, 'Content-Type'],
      [{ headers: { 'x-svc-signature': 'sha256=0' } }, 'x-svc-signature'],
      [{ headers: { 'X-SVC-Delivery': 'mine' } }, 'X-SVC-Delivery'],
      [{ headers: { 'X-SVC-Attempt': '1' } }, 'X-SVC-Attempt'],
      [{ headers: { 'Bad Name': 'v' } }, 'body.headers'],
      [{ headers: { Host: 'evil.example' } }, 'Host'],
      [{ headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v'])) }, 'body.headers'],
      [{ headers: { 'X-A': 'line\r\nbreak' } }, 'body.headers'],
    ];
    for (const [body, mention] of cases) expectSvcError(await create(body), 400, 'invalid_request', mention);
    expectSvcError(
      await svc(platform, key, 'POST', '/api/v1/webhooks', { url: hookUrl(), events: ['lead.created'] }),
      400,
      'invalid_request',
      'name',
    );
    expect(await webhookCount()).toBe(before);
  });
});

describe('read, change, delete', () => {
  test('list newest first in pages with a status filter; get; 404 for another workspace or environment', async () => {
    const own = await svcWorkspace(platform);
    const ownKey = (await own.key(['webhook.*'])).key;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create({ name: `W${i}` }, ownKey)).body.id);
    await svc(platform, ownKey, 'POST', `/api/v1/webhooks/${ids[0]}/pause`);
    const first = await svc(platform, ownKey, 'GET', '/api/v1/webhooks?limit=2');
    expect(first.body.items.map((w: { id: string }) => w.id)).toEqual([ids[2], ids[1]]);
    const second = await svc(platform, ownKey, 'GET', `/api/v1/webhooks?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`);
    expect(second.body).toEqual({
      items: [expect.objectContaining({ id: ids[0], status: 'Paused', paused_reason: 'manual' })],
      next_cursor: null,
    });
    expect((await svc(platform, ownKey, 'GET', '/api/v1/webhooks?status=Paused')).body.items.map((w: { id: string }) => w.id)).toEqual([
      ids[0],
    ]);
    expectSvcError(await svc(platform, ownKey, 'GET', '/api/v1/webhooks?cursor=nope'), 400, 'invalid_request', 'query.cursor');
    expectSvcError(await svc(platform, key, 'GET', `/api/v1/webhooks/${ids[1]}`), 404, 'not_found');
    const testKey = (await own.key(['webhook.*'], { environment: 'test' })).key;
    expectSvcError(await svc(platform, testKey, 'GET', `/api/v1/webhooks/${ids[1]}`), 404, 'not_found');
    expect((await svc(platform, testKey, 'GET', '/api/v1/webhooks')).body).toEqual({ items: [], next_cursor: null });
    // The cursor is bound to the key's workspace and environment and to the filters it was issued with.
    const cursor = encodeURIComponent(first.body.next_cursor);
    for (const [path, k] of [
      [`/api/v1/webhooks?limit=2&cursor=${cursor}`, key],
      [`/api/v1/webhooks?limit=2&cursor=${cursor}`, testKey],
      [`/api/v1/webhooks?limit=2&status=Active&cursor=${cursor}`, ownKey],
    ] as const) {
      expectSvcError(await svc(platform, k, 'GET', path), 400, 'invalid_request', 'query.cursor');
    }
  });

  test('PATCH changes the named fields; a new URL is pinged again; bad input changes nothing', async () => {
    const hook = (await create({ headers: { 'X-A': '1' } })).body;
    const renamed = await svc(platform, key, 'PATCH', `/api/v1/webhooks/${hook.id}`, {
      name: 'Renamed',
      events: ['deal.won'],
      headers: { 'X-B': '2' },
      description: null,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      name: 'Renamed',
      events: ['deal.won'],
      headers: { 'X-B': '2' },
      description: null,
      url: hook.url,
      status: 'Active',
    });

    rig.receiver.respond(() => ({ status: 500 }));
    const moved = await svc(platform, key, 'PATCH', `/api/v1/webhooks/${hook.id}`, { url: hookUrl('/v2') });
    expect(moved.body).toMatchObject({ url: hookUrl('/v2'), status: 'Unverified' });
    const pinged = requestsMatching(rig.receiver.received, { path: '/v2', event: 'ping' });
    expect(pinged.length).toBe(1);
    expect(pinged[0]!.headers['x-b']).toBe('2');

    const unchanged = (await svc(platform, key, 'GET', `/api/v1/webhooks/${hook.id}`)).body;
    expectSvcError(
      await svc(platform, key, 'PATCH', `/api/v1/webhooks/${hook.id}`, { url: 'http://127.0.0.1/x' }),
      400,
      'invalid_request',
      'body.url',
    );
    expectSvcError(
      await svc(platform, key, 'PATCH', `/api/v1/webhooks/${hook.id}`, { name: 'ok', events: ['nope.never'] }),
      400,
      'invalid_request',
      'body.events',
    );
    expectSvcError(
      await svc(platform, key, 'PATCH', `/api/v1/webhooks/${hook.id}`, { name: 'ok', headers: { 'User-Agent': 'x' } }),
      400,
      'invalid_request',
      'User-Agent',
    );
    expectSvcError(await svc(platform, key, 'PATCH', `/api/v1/webhooks/${hook.id}`, { status: 'Active' }), 400, 'invalid_request');
    expect((await svc(platform, key, 'GET', `/api/v1/webhooks/${hook.id}`)).body).toEqual(unchanged);
    expect((await svc(platform, key, 'PATCH', `/api/v1/webhooks/${hook.id}`, {})).body).toEqual(unchanged);
  });

  test('DELETE removes the webhook and its log (204, then 404)', async () => {
    const hook = (await create({})).body;
    expect(await count(platform.db, 'select count(*) as n from webhook_deliveries where webhook_id = $1', [hook.id])).toBe(1);
    const res = await svc(platform, key, 'DELETE', `/api/v1/webhooks/${hook.id}`);
    expect(res.status).toBe(204);
    expectSvcError(await svc(platform, key, 'GET', `/api/v1/webhooks/${hook.id}`), 404, 'not_found');
    expectSvcError(await svc(platform, key, 'DELETE', `/api/v1/webhooks/${hook.id}`), 404, 'not_found');
    expect(await count(platform.db, 'select count(*) as n from webhook_deliveries where webhook_id = $1', [hook.id])).toBe(0);
  });
});

describe('pause, resume, disable', () => {
  test('an Unverified webhook paused and resumed without a 2xx stays Unverified; a 2xx while Paused makes resume Active', async () => {
    rig.receiver.respond(() => ({ status: 503 }));
    const hook = (await create({ events: ['lead.updated'] })).body;
    expect(hook.status).toBe('Unverified');
    expect((await svc(platform, key, 'POST', `/api/v1/webhooks/${hook.id}/pause`)).body).toMatchObject({
      status: 'Paused',
      paused_reason: 'manual',
    });
    expect((await svc(platform, key, 'POST', `/api/v1/webhooks/${hook.id}/resume`)).body).toMatchObject({
      status: 'Unverified',
      paused_reason: null,
    });
    expect((await svc(platform, key, 'GET', `/api/v1/webhooks/${hook.id}`)).body.status).toBe('Unverified');
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'webhook.verified' and payload->>'webhookId' = $1", [
        hook.id,
      ]),
    ).toBe(0);

    // Paused again; a test answered 2xx verifies the URL without ending the pause, and resume then makes it Active.
    await svc(platform, key, 'POST', `/api/v1/webhooks/${hook.id}/pause`);
    rig.receiver.respond(() => ({ status: 200, body: 'ok' }));
    expect((await svc(platform, key, 'POST', `/api/v1/webhooks/${hook.id}/test`, { event: 'lead.updated' })).body.ok).toBe(true);
    expect((await svc(platform, key, 'GET', `/api/v1/webhooks/${hook.id}`)).body.status).toBe('Paused');
    expect((await svc(platform, key, 'POST', `/api/v1/webhooks/${hook.id}/resume`)).body).toMatchObject({ status: 'Active' });
    // Gone, so that the workspace's later lead.updated events reach only the webhooks of their own tests.
    expect((await svc(platform, key, 'DELETE', `/api/v1/webhooks/${hook.id}`)).status).toBe(204);
  });

  test('pause holds events, resume sends them, disable cancels and stops for good', async () => {
    const hook = (await create({ events: ['lead.updated'] })).body;
    const paused = await svc(platform, key, 'POST', `/api/v1/webhooks/${hook.id}/pause`);
    expect(paused.body).toMatchObject({ status: 'Paused', paused_reason: 'manual' });
    expect((await svc(platform, key, 'POST', `/api/v1/webhooks/${hook.id}/pause`)).body.status).toBe('Paused');

    const held = await emitEvent(platform.db, { workspaceId: ws.id, event: 'lead.updated' });
    const row = await eventually(async () => {
      const { rows } = await platform.db.query(
        "select id, event_id, status from webhook_deliveries where webhook_id = $1 and kind = 'event'",
        [hook.id],
      );
      return rows[0];
    });
    expect(row.status).toBe('held');
    expect(rig.receiver.received.some((r) => r.headers['x-svc-delivery'] === row.event_id)).toBe(false);

    const resumed = await svc(platform, key, 'POST', `/api/v1/webhooks/${hook.id}/resume`);
    expect(resumed.body).toMatchObject({ status: 'Active', paused_reason: null });
    await rig.receiver.waitFor((r) => r.some((x) => x.headers['x-svc-delivery'] === row.event_id));
    const sent = rig.receiver.received.find((r) => r.headers['x-svc-delivery'] === row.event_id)!;
    expect(JSON.parse(sent.body.toString()).id).toBe(held.id);

    await svc(platform, key, 'POST', `/api/v1/webhooks/${hook.id}/pause`);
    await emitEvent(platform.db, { workspaceId: ws.id, event: 'lead.updated' });
    await eventually(async () =>
      holds(
        (await count(platform.db, "select count(*) as n from webhook_deliveries where webhook_id = $1 and status = 'held'", [hook.id])) ===
          1,
      ),
    );
    const disabled = await svc(platform, key, 'POST', `/api/v1/webhooks/${hook.id}/disable`);
    expect(disabled.body).toMatchObject({ status: 'Disabled', paused_reason: null });
    expect(
      await count(platform.db, "select count(*) as n from webhook_deliveries where webhook_id = $1 and status = 'cancelled'", [hook.id]),
    ).toBe(1);
    expect((await svc(platform, key, 'POST', `/api/v1/webhooks/${hook.id}/disable`)).body.status).toBe('Disabled');
    for (const action of ['pause', 'resume'])
      expectSvcError(await svc(platform, key, 'POST', `/api/v1/webhooks/${hook.id}/${action}`), 409, 'conflict');
    expectSvcError(await svc(platform, key, 'POST', `/api/v1/webhooks/${hook.id}/test`, { event: 'lead.updated' }), 409, 'conflict');
    expectSvcError(await svc(platform, key, 'PATCH', `/api/v1/webhooks/${hook.id}`, { name: 'x' }), 409, 'conflict');

    // No more triggers: a new event makes no delivery.
    const deliveries = await count(platform.db, 'select count(*) as n from webhook_deliveries where webhook_id = $1', [hook.id]);
    const marker = await emitEvent(platform.db, { workspaceId: ws.id, event: 'lead.updated' });
    await eventually(async () =>
      holds(
        (await count(platform.db, 'select count(*) as n from outbox where published_at is null and payload @> $1::jsonb', [
          JSON.stringify({ envelope: { id: marker.id } }),
        ])) === 0,
      ),
    );
    expect(await count(platform.db, 'select count(*) as n from webhook_deliveries where webhook_id = $1', [hook.id])).toBe(deliveries);
  });
});

/** Answers deliveries of the event 202 'queued for later', everything else 200. */
function queuingEvent(event: string): Responder {
  return (r) => (r.headers['x-svc-event'] === event ? { status: 202, body: 'queued for later' } : { status: 200 });
}

describe('test', () => {
  test('sends a signed delivery of the chosen event now and answers status, body and latency', async () => {
    const hook = (await create({})).body;
    rig.receiver.respond(queuingEvent('deal.stage_changed'));
    const res = await svc(platform, key, 'POST', `/api/v1/webhooks/${hook.id}/test`, {
      event: 'deal.stage_changed',
      payload: { id: 'd1', stage: 'won' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      delivery_id: expect.any(String),
      event_id: expect.stringMatching(/^evt_/),
      ok: true,
      status: 202,
      body: 'queued for later',
      latency_ms: expect.any(Number),
      error: null,
    });
    const sent = rig.receiver.received.find((r) => r.headers['x-svc-delivery'] === res.body.event_id)!;
    expect(JSON.parse(sent.body.toString())).toMatchObject({ event: 'deal.stage_changed', data: { id: 'd1', stage: 'won' } });
    const sample = await svc(platform, key, 'POST', `/api/v1/webhooks/${hook.id}/test`, { event: 'lead.created' });
    const sampled = JSON.parse(rig.receiver.received.find((r) => r.headers['x-svc-delivery'] === sample.body.event_id)!.body.toString());
    expect(Object.keys(sampled.data).sort()).toEqual([
      'created_at',
      'custom_fields',
      'email',
      'id',
      'name',
      'owner_id',
      'phone',
      'source',
      'status',
    ]);
    const log = (await svc(platform, key, 'GET', `/api/v1/webhooks/${hook.id}/deliveries?limit=2`)).body.items;
    expect(log.map((d: { kind: string; event: string }) => [d.kind, d.event])).toEqual([
      ['test', 'lead.created'],
      ['test', 'deal.stage_changed'],
    ]);
    expectSvcError(
      await svc(platform, key, 'POST', `/api/v1/webhooks/${hook.id}/test`, { event: 'lead.vanished' }),
      400,
      'invalid_request',
      'body.event',
    );
  });
});

describe('scopes and environments', () => {
  test('read-only and read-write keys list and get; managing needs webhook.* or admin; other modules get nothing', async () => {
    const hook = (await create({})).body;
    const reader = (await ws.key(['read-only'])).key;
    expect((await svc(platform, reader, 'GET', `/api/v1/webhooks/${hook.id}`)).status).toBe(200);
    expect((await svc(platform, reader, 'GET', `/api/v1/webhooks/${hook.id}/deliveries`)).status).toBe(200);
    expectSvcError(await create({}, reader), 403, 'forbidden', 'webhook.webhooks.create');
    expectSvcError(await svc(platform, reader, 'POST', `/api/v1/webhooks/${hook.id}/pause`), 403, 'forbidden', 'webhook.webhooks.update');
    expectSvcError(await svc(platform, reader, 'POST', `/api/v1/webhooks/${hook.id}/disable`), 403, 'forbidden', 'webhook.webhooks.delete');
    const crm = (await ws.key(['crm.*'])).key;
    expectSvcError(await svc(platform, crm, 'GET', '/api/v1/webhooks'), 403, 'forbidden', 'webhook.webhooks.read');
    // read-write reads webhooks but no longer manages them: that takes webhook.* or admin.
    const writer = (await ws.key(['read-write'])).key;
    expect((await svc(platform, writer, 'GET', `/api/v1/webhooks/${hook.id}`)).status).toBe(200);
    const before = await webhookCount();
    expectSvcError(await create({}, writer), 403, 'forbidden', 'webhook.webhooks.create');
    expectSvcError(
      await svc(platform, writer, 'PATCH', `/api/v1/webhooks/${hook.id}`, { url: hookUrl('/elsewhere') }),
      403,
      'forbidden',
      'webhook.webhooks.update',
    );
    expectSvcError(await svc(platform, writer, 'POST', `/api/v1/webhooks/${hook.id}/disable`), 403, 'forbidden', 'webhook.webhooks.delete');
    expect(await webhookCount()).toBe(before);
    expect((await svc(platform, writer, 'GET', `/api/v1/webhooks/${hook.id}`)).body).toMatchObject({ url: hookUrl(), status: 'Active' });
    const admin = (await ws.key(['admin'])).key;
    expect((await create({}, admin)).status).toBe(201);
  });

  test('a test-key webhook gets test events only; a live webhook never gets them', async () => {
    const own = await svcWorkspace(platform);
    const live = (await create({ events: ['lead.created'] }, (await own.key(['webhook.*'])).key)).body;
    const test = (
      await create({ events: ['lead.created'], url: hookUrl('/test-env') }, (await own.key(['webhook.*'], { environment: 'test' })).key)
    ).body;
    expect(test.environment).toBe('test');
    const testEvent = await emitEvent(platform.db, { workspaceId: own.id, event: 'lead.created', environment: 'test' });
    const liveEvent = await emitEvent(platform.db, { workspaceId: own.id, event: 'lead.created', environment: 'live' });
    const bodyIds = () =>
      requestsMatching(rig.receiver.received, { workspace: own.id, event: 'lead.created' }).map((r) => [
        r.path,
        JSON.parse(r.body.toString()).id,
      ]);
    await rig.receiver.waitFor(() => bodyIds().length >= 2);
    expect(bodyIds().sort()).toEqual(
      [
        ['/hooks', liveEvent.id],
        ['/test-env', testEvent.id],
      ].sort(),
    );
    const rows = await platform.db.query('select webhook_id, event_id from webhook_deliveries where workspace_id = $1 and kind = $2', [
      own.id,
      'event',
    ]);
    expect(rows.rows.map((r) => [r.webhook_id, r.event_id]).sort()).toEqual(
      [
        [live.id, liveEvent.id],
        [test.id, testEvent.id],
      ].sort(),
    );
  });
});
