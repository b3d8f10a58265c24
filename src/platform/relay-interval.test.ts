// Local outbox drains on the test run's redis-server: an idle node drains at once; a stream of requests is served by
// drains at least RELAY_INTERVAL_MS apart; a request still waiting for its turn is drained when the workers stop.
import { setTimeout as sleep } from 'node:timers/promises';
import { createLogger } from './logger.js';
import { createQueues, type Queues } from './queues.js';

const interval = 100;
let queues: Queues;
let starts: number[];

beforeEach(async () => {
  queues = createQueues(process.env.TEST_REDIS_URL!, createLogger('silent'), interval);
  starts = [];
  await queues.drainLocally(async () => {
    starts.push(performance.now());
    await sleep(5);
  });
});
afterEach(async () => {
  await queues.drainLocally(null);
  await queues.close();
});

test('the first request drains at once; requests that keep coming are served by drains an interval apart', async () => {
  const t0 = performance.now();
  queues.requestOutboxDrain();
  await sleep(1);
  expect(starts).toHaveLength(1);
  expect(starts[0]! - t0).toBeLessThan(interval / 2);
  // Requests every 5 ms for 450 ms: without the interval that is about 90 drains.
  for (let i = 0; i < 90; i++) {
    queues.requestOutboxDrain();
    await sleep(5);
  }
  await sleep(interval + 20);
  expect(starts.length).toBeGreaterThanOrEqual(3);
  expect(starts.length).toBeLessThanOrEqual(12);
  for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(interval - 2);
  // The last request was served by a drain that began after it.
  expect(starts[starts.length - 1]!).toBeGreaterThan(t0 + 400);
});

test('a request waiting for its turn is drained when the node goes back to jobs', async () => {
  queues.requestOutboxDrain();
  await sleep(20);
  queues.requestOutboxDrain(); // within the interval: waits for its turn
  expect(starts).toHaveLength(1);
  await queues.drainLocally(null);
  expect(starts).toHaveLength(2);
});
