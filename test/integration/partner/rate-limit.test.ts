// The rate counter by calling IP: it runs before key validation, so keys on one host share one allowance and
// switching keys (or sending bad ones) does not reset it; per-minute and per-day windows; 429 with Retry-After.
import { ManualClock } from '../../../src/platform/clock.js';
import { expectPartnerError } from '../../helpers/partner-expect.js';
import { call, isolatedInfra, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { testWorkspace } from '../../support/partner.js';

// A Redis database of its own: the counters of other test files on 127.0.0.1 must not count here.
let infra: Awaited<ReturnType<typeof isolatedInfra>>;
let platform: TestPlatform;
let second: TestPlatform;
const clock = new ManualClock(new Date('2026-11-21T10:00:00.000Z'));

beforeAll(async () => {
  infra = await isolatedInfra();
  const limits = {
    services: ['partner' as const],
    databaseUrl: infra.databaseUrl,
    redisUrl: infra.redisUrl,
    rateLimitPerMinute: 5,
    rateLimitPerDay: 8,
  };
  platform = await startTestPlatform(limits, clock);
  second = await startTestPlatform(limits, clock);
});
afterAll(async () => {
  await second?.stop();
  await platform?.stop();
  await infra?.drop();
});

const me = (base: string, key: string) => call(base, 'GET', '/api/v1/partner/crm/_me', { headers: { 'x-api-key': key } });

test('two keys and two nodes share one allowance per IP; bad keys count too; windows reset; the day limit holds', async () => {
  const ws = await testWorkspace(platform);
  const [a, b] = [(await ws.key(['crm_leads:read'])).key, (await ws.key(['crm_leads:read'])).key];

  const remaining: string[] = [];
  for (const [base, key] of [
    [platform.partnerUrl, a],
    [second.partnerUrl, b],
    [platform.partnerUrl, a],
    [second.partnerUrl, 'not-a-key'],
    [platform.partnerUrl, b],
  ] as const) {
    const res = await me(base, key);
    expect(res.headers.get('x-ratelimit-limit')).toBe('5');
    expect(res.headers.get('x-ratelimit-reset')).toBe('60');
    remaining.push(res.headers.get('x-ratelimit-remaining')!);
  }
  expect(remaining).toEqual(['4', '3', '2', '1', '0']);

  // The sixth request of the minute is refused before its key is even looked at.
  for (const key of [b, 'not-a-key']) {
    const res = await me(second.partnerUrl, key);
    expectPartnerError(res, 429, 'rate_limit_exceeded');
    expect(res.headers.get('retry-after')).toBe('60');
    expect(res.body.error.retry_after).toBe(60);
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
  }

  clock.advance(30_000);
  const later = await me(platform.partnerUrl, a);
  expect(later.status).toBe(429);
  expect(later.headers.get('retry-after')).toBe('30');

  // Next minute: the day counter already holds 8 (refused requests count too), so the day limit refuses it.
  clock.advance(30_000);
  const fresh = await me(platform.partnerUrl, a);
  expect(fresh.status).toBe(429);
  expect(fresh.body.error.details).toMatchObject({ window: 'day' });
  const untilMidnight = Number(fresh.headers.get('retry-after'));
  expect(untilMidnight).toBe((Date.parse('2026-11-22T00:00:00Z') - clock.now().getTime()) / 1000);

  clock.set(new Date('2026-11-22T00:00:01Z'));
  expect((await me(platform.partnerUrl, a)).status).toBe(200);
});
