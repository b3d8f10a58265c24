// The leased allowance on the test run's redis-server: never admits beyond the limit, whatever the concurrency and
// however many nodes share the window; a fast subject reaches Redis for a fraction of its hits, a slow one for each.
import { randomUUID } from 'node:crypto';
import { ManualClock } from './clock.js';
import { LeasedWindowCounter } from './leased-counter.js';
import { connectRedis, type Redis } from './redis.js';

let redis: Redis;
// 10 s into a minute, so no window turns unless a test moves the clock.
const start = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 10_000);

beforeAll(() => {
  redis = connectRedis(process.env.TEST_REDIS_URL!, 'leased-counter-test');
});
afterAll(() => redis.disconnect());

/** The shared connection, counting the counter's calls to Redis. */
function countingRedis(): { redis: Redis; calls: () => number } {
  let calls = 0;
  const proxy = new Proxy(redis, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop !== 'platformLeaseHit' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls += 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { redis: proxy, calls: () => calls };
}

async function admittedOf(counter: LeasedWindowCounter, subject: string, hits: number): Promise<number> {
  let admitted = 0;
  for (let i = 0; i < hits; i++) if ((await counter.hit(subject)).admitted) admitted += 1;
  return admitted;
}

/** How many of `hits` hits of the subject, sent to the counters in turn, are admitted. */
async function admittedAcross(counters: LeasedWindowCounter[], subject: string, hits: number): Promise<number> {
  let admitted = 0;
  for (let i = 0; i < hits; i++) if ((await counters[i % counters.length]!.hit(subject)).admitted) admitted += 1;
  return admitted;
}

test('a fast subject on one node gets exactly its limit, with few calls to Redis; the refusal says when the window resets', async () => {
  const clock = new ManualClock(start);
  const spy = countingRedis();
  const counter = new LeasedWindowCounter(spy.redis, `t:${randomUUID()}`, { seconds: 60, limit: 1_000 }, clock);
  expect(await admittedOf(counter, 'a', 1_000)).toBe(1_000);
  expect(spy.calls()).toBeLessThan(100);
  expect(await counter.hit('a')).toEqual({ admitted: false, retryAfter: 50 });
  // Another subject has its own allowance.
  expect(await counter.hit('b')).toEqual({ admitted: true });
});

test('a slow subject reaches Redis for every hit (leases grow only when spent within a second)', async () => {
  const clock = new ManualClock(start);
  const spy = countingRedis();
  const prefix = `t:${randomUUID()}`;
  const counter = new LeasedWindowCounter(spy.redis, prefix, { seconds: 60, limit: 1_000 }, clock);
  for (let i = 0; i < 5; i++) {
    expect((await counter.hit('a')).admitted).toBe(true);
    clock.advance(2_000);
  }
  expect(spy.calls()).toBe(5);
  const key = `${prefix}:${Math.floor(start.getTime() / 60_000)}:a`;
  expect(Number(await redis.get(key))).toBe(5);
});

test('concurrent hits on three nodes never pass the limit together, and leave at most a lease per other node unused', async () => {
  const clock = new ManualClock(start);
  const prefix = `t:${randomUUID()}`;
  const limit = 500;
  const nodes = [0, 1, 2].map(() => new LeasedWindowCounter(redis, prefix, { seconds: 60, limit }, clock));
  const outcomes = await Promise.all(Array.from({ length: 900 }, (_, i) => nodes[i % 3]!.hit('a')));
  const admitted = outcomes.filter((o) => o.admitted).length;
  expect(admitted).toBeLessThanOrEqual(limit);
  // A lease is at most a fiftieth of the limit (10 here): at most 9 units stranded per other node.
  expect(admitted).toBeGreaterThanOrEqual(limit - 2 * 9);
});

test('a new window brings a new allowance and drops the old leases', async () => {
  const clock = new ManualClock(start);
  const counter = new LeasedWindowCounter(redis, `t:${randomUUID()}`, { seconds: 60, limit: 100 }, clock);
  expect(await admittedOf(counter, 'a', 150)).toBe(100);
  clock.advance(60_000);
  expect(await admittedOf(counter, 'a', 150)).toBe(100);
});

test("a one-second window's count outlives a pause of more than two seconds while its window lasts", async () => {
  const clock = new ManualClock(start);
  const counter = new LeasedWindowCounter(redis, `t:${randomUUID()}`, { seconds: 1, limit: 2 }, clock);
  expect(await admittedOf(counter, 'a', 2)).toBe(2);
  // The clock stands still, as it does for a caller whose hits are slow to arrive within one window.
  await new Promise((resolve) => setTimeout(resolve, 2_200));
  expect(await counter.hit('a')).toEqual({ admitted: false, retryAfter: 1 });
});

test('below a limit of 100 every hit is one unit: exact across nodes', async () => {
  const clock = new ManualClock(start);
  const prefix = `t:${randomUUID()}`;
  const [a, b] = [0, 1].map(() => new LeasedWindowCounter(redis, prefix, { seconds: 60, limit: 60 }, clock));
  expect(await admittedAcross([a!, b!], 's', 80)).toBe(60);
});
