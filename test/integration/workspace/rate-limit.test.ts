// Rate limits per workspace by plan, shared by every node through Redis: hourly allowance and per-minute burst,
// X-RateLimit-* on every key response, 429 rate_limit_exceeded with retry_after and Retry-After; refused requests
// consume nothing.
import { ManualClock } from '../../../src/platform/clock.js';
import { expectSvcError, expectSvcRateHeaders, svcHeaders } from '../../helpers/workspace-expect.js';
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace } from '../../support/workspace.js';
import { alternate } from '../../helpers/data.js';

let nodeA: TestPlatform;
let nodeB: TestPlatform;
const start = new Date('2026-11-24T10:00:00.000Z');
const clock = new ManualClock(start);
const unix = (d: Date) => Math.floor(d.getTime() / 1000);

beforeAll(async () => {
  nodeA = await startTestPlatform({ services: ['workspace'] }, clock);
  nodeB = await startTestPlatform({ services: ['workspace'] }, clock);
});
afterAll(async () => {
  await nodeB?.stop();
  await nodeA?.stop();
});
beforeEach(() => clock.set(start));

/** A request made with the key, on node A or B. */
const hit = (key: string, node: TestPlatform = nodeA) =>
  call(node.workspaceUrl, 'GET', '/api/v1/leads?limit=1', { headers: svcHeaders(key) });
const headers = (res: Awaited<ReturnType<typeof hit>>) => ({
  limit: Number(res.headers.get('x-ratelimit-limit')),
  remaining: Number(res.headers.get('x-ratelimit-remaining')),
  reset: Number(res.headers.get('x-ratelimit-reset')),
});

/** Node B for every third request (i divisible by 3), node A for the others. */
const thirdsOnB = (i: number) => (i % 3 === 0 ? nodeB : nodeA);

test('free: 20 a minute across keys and nodes, then 429 with retry_after; refused requests count nothing', async () => {
  const ws = await svcWorkspace(nodeA, { plan: 'free' });
  const [a, b] = [(await ws.key(['crm.read'])).key, (await ws.key(['crm.read'])).key];
  clock.set(new Date('2026-11-24T10:00:15.000Z'));
  const minuteEnd = unix(new Date('2026-11-24T10:01:00Z'));
  for (let i = 1; i <= 20; i++) {
    const res = await hit(alternate(i, b, a), thirdsOnB(i));
    expect(res.status).toBe(200);
    expect(headers(res)).toEqual({ limit: 100, remaining: 20 - i, reset: minuteEnd });
  }
  for (const node of [nodeA, nodeB]) {
    const refused = await hit(a, node);
    expectSvcError(refused, 429, 'rate_limit_exceeded', 'minute');
    expectSvcRateHeaders(refused);
    expect(refused.body.retry_after).toBe(45);
    expect(refused.headers.get('retry-after')).toBe('45');
    expect(headers(refused)).toEqual({ limit: 100, remaining: 0, reset: minuteEnd });
  }
  // The next minute: the burst is back; the hour holds the 20 admitted requests only.
  clock.set(new Date('2026-11-24T10:01:00.000Z'));
  const next = await hit(b, nodeB);
  expect(next.status).toBe(200);
  expect(headers(next)).toEqual({ limit: 100, remaining: 19, reset: unix(new Date('2026-11-24T10:02:00Z')) });

  // Another workspace has its own allowance.
  const other = await svcWorkspace(nodeA, { plan: 'free' });
  clock.set(new Date('2026-11-24T10:00:30.000Z'));
  expect((await hit((await other.key(['crm.read'])).key)).status).toBe(200);
});

test('free: 100 an hour; past it 429 until the hour ends, whatever the minute', async () => {
  const ws = await svcWorkspace(nodeA, { plan: 'free' });
  const { key } = await ws.key(['crm.read']);
  for (let minute = 0; minute < 5; minute++) {
    clock.set(new Date(start.getTime() + minute * 60_000));
    for (let i = 0; i < 20; i++) expect((await hit(key, alternate(i, nodeB, nodeA))).status).toBe(200);
  }
  clock.set(new Date('2026-11-24T10:05:00.000Z'));
  const hourEnd = unix(new Date('2026-11-24T11:00:00Z'));
  const refused = await hit(key);
  expectSvcError(refused, 429, 'rate_limit_exceeded', 'hour');
  expect(refused.body.retry_after).toBe(55 * 60);
  expect(refused.headers.get('retry-after')).toBe(String(55 * 60));
  expect(headers(refused)).toEqual({ limit: 100, remaining: 0, reset: hourEnd });
  clock.set(new Date('2026-11-24T11:00:00.000Z'));
  const fresh = await hit(key);
  expect(fresh.status).toBe(200);
  expect(headers(fresh).remaining).toBe(19);
});

test('Remaining is the lower of hour and minute; Reset is the end of the window that binds', async () => {
  const ws = await svcWorkspace(nodeA, { plan: 'free' });
  const { key } = await ws.key(['crm.read']);
  for (let minute = 0; minute < 4; minute++) {
    clock.set(new Date(start.getTime() + minute * 60_000));
    for (let i = 0; i < 20; i++) await hit(key);
  }
  // 80 used this hour: in a new minute 20 are left in both; after 5 more, 15 in both (a tie reads the hour).
  clock.set(new Date('2026-11-24T10:10:00.000Z'));
  for (let i = 0; i < 5; i++) await hit(key);
  const res = await hit(key);
  expect(headers(res)).toEqual({ limit: 100, remaining: 14, reset: unix(new Date('2026-11-24T11:00:00Z')) });
});

test('pro 1000/100 and business 10000/500; enterprise by its contract columns, else business limits', async () => {
  const pro = await svcWorkspace(nodeA, { plan: 'pro' });
  const proKey = (await pro.key(['crm.read'])).key;
  let last;
  for (let i = 0; i < 100; i++) last = await hit(proKey, alternate(i, nodeB, nodeA));
  expect(headers(last!)).toMatchObject({ limit: 1000, remaining: 0 });
  expectSvcError(await hit(proKey), 429, 'rate_limit_exceeded');

  const business = await svcWorkspace(nodeA, { plan: 'business' });
  expect(headers(await hit((await business.key(['crm.read'])).key))).toMatchObject({ limit: 10_000, remaining: 499 });

  const contract = await svcWorkspace(nodeA, { plan: 'enterprise', perHour: 50_000, perMinute: 3 });
  const contractKey = (await contract.key(['crm.read'])).key;
  for (let i = 0; i < 3; i++) expect(headers(await hit(contractKey))).toMatchObject({ limit: 50_000, remaining: 2 - i });
  expectSvcError(await hit(contractKey), 429, 'rate_limit_exceeded');

  const uncontracted = await svcWorkspace(nodeA, { plan: 'enterprise' });
  expect(headers(await hit((await uncontracted.key(['crm.read'])).key))).toMatchObject({ limit: 10_000, remaining: 499 });
});

test('rate headers are on every response of a found key, errors included; a 401 has none', async () => {
  const ws = await svcWorkspace(nodeA, { plan: 'free' });
  const { key } = await ws.key(['hr.read']);
  const forbidden = await hit(key);
  expectSvcError(forbidden, 403, 'forbidden');
  expect(headers(forbidden)).toMatchObject({ limit: 100, remaining: 19 });
  const missing = await call(nodeA.workspaceUrl, 'GET', '/api/v1/nowhere', { headers: svcHeaders(key) });
  expectSvcError(missing, 404, 'not_found');
  expect(headers(missing)).toMatchObject({ remaining: 18 });
  const unknown = await hit('svc_live_' + 'B'.repeat(32));
  expectSvcError(unknown, 401, 'unauthorized');
  expect(unknown.headers.get('x-ratelimit-limit')).toBeNull();
});
