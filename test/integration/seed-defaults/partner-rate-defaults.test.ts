// The partner seed's rate limits at their defaults (RATE_LIMIT_PER_MINUTE and RATE_LIMIT_PER_DAY unset): 600 requests
// per minute and 100,000 per day by calling IP. The minute is spent with real requests; the day counter is brought
// to its last unit in Redis (100,000 requests would take minutes), then real requests take and pass the limit.
import { Redis } from 'ioredis';
import { ManualClock } from '../../../src/platform/clock.js';
import { loadConfig } from '../../../src/platform/config/index.js';
import { expectPartnerError } from '../../helpers/partner-expect.js';
import { call, isolatedInfra, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { testWorkspace } from '../../support/partner.js';

// 10 s into a minute of the day's first hour: neither window turns during the test unless the clock is moved.
const start = new Date('2026-11-21T00:00:10.000Z');
const clock = new ManualClock(start);
let infra: Awaited<ReturnType<typeof isolatedInfra>>;
let platform: TestPlatform;
let redis: Redis;

beforeAll(async () => {
  infra = await isolatedInfra();
  const defaults = loadConfig({});
  platform = await startTestPlatform(
    {
      services: ['partner'],
      databaseUrl: infra.databaseUrl,
      redisUrl: infra.redisUrl,
      rateLimitPerMinute: defaults.rateLimitPerMinute,
      rateLimitPerDay: defaults.rateLimitPerDay,
    },
    clock,
  );
  redis = new Redis(infra.redisUrl);
});
afterAll(async () => {
  redis?.disconnect();
  await platform?.stop();
  await infra?.drop();
});

test('600 requests a minute pass, the 601st is refused; the 100,000th of the day passes and the next is refused', async () => {
  const key = (await (await testWorkspace(platform)).key(['crm_leads:read'])).key;
  const me = () => call(platform.partnerUrl, 'GET', '/api/v1/partner/crm/_me', { headers: { 'x-api-key': key } });

  for (let i = 1; i <= 600; i++) {
    const res = await me();
    expect({ i, status: res.status, limit: res.headers.get('x-ratelimit-limit') }).toEqual({ i, status: 200, limit: '600' });
  }
  const overMinute = await me();
  expectPartnerError(overMinute, 429, 'rate_limit_exceeded');
  expect(overMinute.body.error.details).toMatchObject({ window: 'minute', limit: 600 });

  clock.set(new Date(start.getTime() + 60_000));
  const [dayKey] = await redis.keys('partner:rate:d:*');
  // 601 counted so far (the refused one too); 99,999 leaves one request of the day.
  expect(await redis.get(dayKey!)).toBe('601');
  await redis.set(dayKey!, '99999', 'KEEPTTL');
  expect((await me()).status).toBe(200);
  const overDay = await me();
  expectPartnerError(overDay, 429, 'rate_limit_exceeded');
  expect(overDay.body.error.details).toMatchObject({ window: 'day', limit: 100_000 });
});
