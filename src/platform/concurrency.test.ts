// The concurrency bound: never more than its limit at once, later works start in order, a failure frees its slot.
import { concurrencyLimit } from './concurrency.js';

test('at most the limit run at once, the rest start in order as slots free up, and a failure frees its slot', async () => {
  const limited = concurrencyLimit(2);
  let running = 0;
  let most = 0;
  const started: number[] = [];
  const work = (i: number) => async () => {
    started.push(i);
    running++;
    most = Math.max(most, running);
    await new Promise((r) => setTimeout(r, 5));
    running--;
    if (i === 1) throw new Error('fails');
    return i;
  };
  const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map((i) => limited(work(i))));
  expect(most).toBe(2);
  expect(started).toEqual([0, 1, 2, 3, 4, 5]);
  expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'failed'))).toEqual([0, 'failed', 2, 3, 4, 5]);
  // Every slot came back: a full round runs again.
  expect(await Promise.all([6, 7, 8].map((i) => limited(async () => i)))).toEqual([6, 7, 8]);
});
