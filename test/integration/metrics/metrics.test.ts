// The operations listener under load: a scrape during a run of sends shows the request counter and the latency
// histogram of the operation moving, the STOMP session and subscription gauges, the outbox drains, the queues, the
// pools and Redis; 429s count as rate-limit refusals; METRICS_PORT unset means no listener at all.
import { loadConfig } from '../../../src/platform/config/index.js';
import { call, isolatedInfra, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { eventually } from '../../helpers/expect.js';
import { createRoom, isMessageIn, Probe, send, startNode, wsUrl } from '../realtime/support.js';
import { sample, scrape } from './scrape.js';
import { growth } from '../../helpers/metrics.js';

let p: TestPlatform;
let infra: Awaited<ReturnType<typeof isolatedInfra>>;
beforeAll(async () => {
  // A database and Redis of its own: on the shared ones another test process's relay may drain these sends.
  infra = await isolatedInfra();
  p = await startNode({ metricsPort: 0, databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl });
});
afterAll(async () => {
  await p?.stop();
  await infra?.drop();
});

const sends = { listener: 'chat', operation: 'sendMessage', status_class: '2xx' };

test('a scrape during a run of sends sees requests, latencies, STOMP sessions, outbox drains, queues, pools and Redis', async () => {
  expect(p.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  const tenant = await p.tenant();
  const [alice, bob] = [await tenant.account(), await tenant.account()];
  const roomId = await createRoom(p, alice, [bob]);
  const before = await scrape(p.metricsUrl!);
  const probe = await Probe.open(wsUrl(p), bob.token);
  await probe.subscribeEvents();

  // Sends in flight while the scrape runs: the exposition answers under load.
  const run = Promise.all(Array.from({ length: 30 }, (_, i) => send(p, alice, roomId, `m${i}`)));
  const during = await scrape(p.metricsUrl!);
  expect(sample(during, 'platform_stomp_sessions')).toBeGreaterThanOrEqual(1);
  expect(sample(during, 'platform_stomp_subscriptions')).toBeGreaterThanOrEqual(1);
  await run;
  await eventually(async () => probe.events.filter(isMessageIn(roomId)).length >= 30, 10_000);
  const after = await scrape(p.metricsUrl!);
  await probe.close();

  const delta = (name: string, labels: Record<string, string> = {}) => growth(before, after, name, labels);
  expect(delta('platform_http_requests_total', sends)).toBe(30);
  expect(delta('platform_http_request_duration_seconds_count', { listener: 'chat', operation: 'sendMessage' })).toBe(30);
  expect(delta('platform_stomp_frames_total', { direction: 'out' })).toBeGreaterThanOrEqual(30);
  expect(delta('platform_stomp_frames_total', { direction: 'in' })).toBeGreaterThanOrEqual(2);
  // Every send asks this process's relay for a drain (another test file's relay may publish some of the rows).
  expect(delta('platform_outbox_drain_events_count')).toBeGreaterThanOrEqual(1);
  expect(sample(after, 'platform_outbox_lag_seconds')).toBeGreaterThanOrEqual(0);
  expect(delta('platform_db_query_duration_seconds_count', { pool: 'sql' })).toBeGreaterThan(30);
  expect(sample(after, 'platform_db_pool_connections', { pool: 'sql', state: 'total' })).toBeGreaterThan(0);
  expect(sample(after, 'platform_db_pool_max_connections', { pool: 'sql' })).toBe(20);
  expect(delta('platform_redis_command_duration_seconds_count', { connection: 'commands' })).toBeGreaterThan(0);
  for (const queue of ['outbox', 'maintenance', 'time'])
    expect(sample(after, 'platform_queue_jobs', { queue, state: 'waiting' })).toBeGreaterThanOrEqual(0);
  // The safety-net drain and the prune jobs are scheduled: delayed jobs on the outbox queue.
  expect(sample(after, 'platform_queue_jobs', { queue: 'outbox', state: 'delayed' })).toBeGreaterThanOrEqual(1);
  expect(sample(after, 'platform_bot_updates_pending')).toBeGreaterThanOrEqual(0);
  expect(sample(after, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
});

test('unrouted requests share one label value, so paths never become labels', async () => {
  const before = await scrape(p.metricsUrl!);
  for (const path of ['/nowhere/1', '/nowhere/2', '/nowhere/3']) expect((await call(p.chatUrl!, 'GET', path)).status).toBe(404);
  const after = await scrape(p.metricsUrl!);
  const unmatched = { listener: 'chat', operation: 'unmatched', status_class: '4xx' };
  expect(growth(before, after, 'platform_http_requests_total', unmatched)).toBe(3);
  expect(after).not.toContain('/nowhere');
});

test('the operations listener answers /healthz and /readyz, and refuses other paths and methods', async () => {
  expect(await (await fetch(`${p.metricsUrl}/healthz`)).json()).toEqual({ status: 'ok' });
  const ready = await fetch(`${p.metricsUrl}/readyz`);
  expect([ready.status, await ready.json()]).toEqual([200, { status: 'ok', checks: { database: 'ok', redis: 'ok' } }]);
  const metrics = await fetch(`${p.metricsUrl}/metrics`);
  expect(metrics.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const other = await fetch(`${p.metricsUrl}/api/v1/rooms`);
  expect([other.status, ((await other.json()) as { error: string }).error]).toEqual([404, 'not_found']);
  const post = await fetch(`${p.metricsUrl}/metrics`, { method: 'POST' });
  expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
});

test('METRICS_PORT unset: no operations listener; set: loopback unless METRICS_HOST says otherwise', async () => {
  expect(loadConfig({})).toMatchObject({ metricsPort: undefined, metricsHost: '127.0.0.1' });
  expect(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' })).toMatchObject({ metricsPort: 9464, metricsHost: '0.0.0.0' });
  expect(() => loadConfig({ METRICS_PORT: 'x' })).toThrow(/METRICS_PORT must be a whole number/);
  const plain = await startTestPlatform({ services: ['chat'] });
  try {
    expect(plain.metricsUrl).toBeUndefined();
  } finally {
    await plain.stop();
  }
});

test('a refused send counts as a rate-limit refusal of its interface', async () => {
  const limited = await startTestPlatform({ services: ['chat'], sendRateLimitPerMinute: 1 });
  try {
    const tenant = await limited.tenant();
    const [alice, bob] = [await tenant.account(), await tenant.account()];
    const room = await call(limited.chatUrl!, 'POST', '/api/v1/rooms', {
      token: alice.token,
      body: { type: 'GROUP', name: 'Limited', memberIds: [bob.id] },
    });
    const roomId = (room.body as { data: { id: string } }).data.id;
    const before = await scrape(p.metricsUrl!);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (await call(limited.chatUrl!, 'POST', `/api/v1/rooms/${roomId}/messages`, { token: alice.token, body: { text: `m${i}` } })).status,
      );
    const refused = statuses.filter((s) => s === 429).length;
    expect(refused).toBeGreaterThanOrEqual(1);
    // The registry is the process's: the other platform's listener serves this one's counts too.
    const after = await scrape(p.metricsUrl!);
    expect(growth(before, after, 'platform_rate_limit_refusals_total', { interface: 'chat' })).toBe(refused);
  } finally {
    await limited.stop();
  }
});
