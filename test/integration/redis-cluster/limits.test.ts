// The rate limits on a Redis Cluster, shared by two nodes: the chat send allowance (a leased counter), the partner
// gate's per-IP minute and day windows and the workspace gate's per-workspace minute and hour windows (one script
// call counts both windows, so their keys carry the subject as a hash tag and share a slot).
import { ManualClock } from '../../../src/platform/clock.js';
import { count, expectError, expectOk } from '../../helpers/expect.js';
import { expectPartnerError } from '../../helpers/partner-expect.js';
import { expectSvcError, svcHeaders } from '../../helpers/workspace-expect.js';
import { testWorkspace } from '../../support/partner.js';
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace } from '../../support/workspace.js';
import { clusterInfra, type ClusterInfra } from './support.js';

// 20 s into a minute and far from the hour's end: only the steps a test takes move a window, and Retry-After is known.
const start = new Date('2026-11-24T10:00:20.000Z');
const clock = new ManualClock(start);
let infra: ClusterInfra;
let a: TestPlatform;
let b: TestPlatform;

beforeAll(async () => {
  infra = await clusterInfra();
  const shared = {
    databaseUrl: infra.databaseUrl,
    redisUrl: infra.redisUrl,
    services: ['chat' as const, 'partner' as const, 'workspace' as const],
    sendRateLimitPerMinute: 3,
    rateLimitPerMinute: 5,
    rateLimitPerDay: 1_000,
  };
  [a, b] = await Promise.all([startTestPlatform(shared, clock), startTestPlatform(shared, clock)]);
});
afterAll(async () => {
  await b?.stop();
  await a?.stop();
  await infra?.stop();
});
beforeEach(() => clock.set(start));

test('the send allowance is shared by both nodes: the fourth send in a minute is 429 on either, and nothing is stored', async () => {
  const tenant = await a.tenant();
  const [alice, bob] = [await tenant.account(), await tenant.account()];
  const room = await call(a.chatUrl, 'POST', '/api/v1/rooms', {
    token: alice.token,
    body: { type: 'GROUP', name: 'Busy', memberIds: [bob.id] },
  });
  expectOk(room, 201);
  const roomId = room.body.data.id as string;
  const send = (node: TestPlatform, text: string) =>
    call(node.chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages`, { token: alice.token, body: { text } });

  expectOk(await send(a, 'one'), 201);
  expectOk(await send(b, 'two'), 201);
  expectOk(await send(a, 'three'), 201);
  for (const node of [b, a]) {
    const refused = await send(node, 'too many');
    expectError(refused, 429, 'rate_limited', 'header.authorization');
    expect(refused.headers.get('retry-after')).toBe('40');
  }
  expect(await count(a.db, 'select count(*) as n from messages where room_id = $1 and sender_id = $2', [roomId, alice.id])).toBe(3);
  expect(await infra.keys(`chat:send:m:*:${alice.id}`)).toHaveLength(1);
});

test('the partner gate counts per IP over both nodes; the sixth request of the minute is 429', async () => {
  const ws = await testWorkspace(a);
  const key = (await ws.key(['crm_leads:read'])).key;
  const me = (node: TestPlatform) => call(node.partnerUrl, 'GET', '/api/v1/partner/crm/_me', { headers: { 'x-api-key': key } });
  const remaining: string[] = [];
  for (const node of [a, b, a, b, a]) {
    const res = await me(node);
    expect(res.status).toBe(200);
    remaining.push(res.headers.get('x-ratelimit-remaining')!);
  }
  expect(remaining).toEqual(['4', '3', '2', '1', '0']);
  const refused = await me(b);
  expectPartnerError(refused, 429, 'rate_limit_exceeded');
  expect(refused.headers.get('retry-after')).toBe('40');
  // The minute's and the day's counters of the caller's IP share its hash tag, so one script call counts both.
  const counters = await infra.keys('partner:rate:*');
  expect(counters.map((k) => k.replace(/:\d+:/, ':<window>:'))).toEqual(
    expect.arrayContaining(['partner:rate:d:<window>:{127.0.0.1}', 'partner:rate:m:<window>:{127.0.0.1}']),
  );

  clock.set(new Date(start.getTime() + 60_000));
  expect((await me(a)).status).toBe(200);
});

test('the workspace gate counts per workspace over both nodes; a refused request consumes nothing', async () => {
  const ws = await svcWorkspace(a, { plan: 'enterprise', perMinute: 4, perHour: 6 });
  const { key } = await ws.key(['crm.read']);
  const hit = (node: TestPlatform) => call(node.workspaceUrl, 'GET', '/api/v1/leads?limit=1', { headers: svcHeaders(key) });
  for (const node of [a, b, b, a]) expect((await hit(node)).status).toBe(200);
  for (const node of [a, b]) {
    const refused = await hit(node);
    expectSvcError(refused, 429, 'rate_limit_exceeded');
    expect(refused.headers.get('retry-after')).toBe('40');
  }
  // The next minute: two more fit in the hour (the refused ones took nothing), the third is refused by the hour.
  clock.set(new Date(start.getTime() + 60_000));
  expect((await hit(b)).status).toBe(200);
  expect((await hit(a)).status).toBe(200);
  const byHour = await hit(b);
  expectSvcError(byHour, 429, 'rate_limit_exceeded');
  expect(byHour.headers.get('retry-after')).toBe(String(3_600 - 80));
  expect(await infra.keys(`svc:rate:*:{${ws.id}}`)).toHaveLength(3);
});
