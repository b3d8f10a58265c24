// The concurrency bound: never more than its limit at once, later works start in order, a failure frees its slot.
import { concurrencyLimit } from './concurrency.js';

/** Works that record their start and how many run at once; work `failing` throws after its wait. */
function tracked(failing: number) {
  const state = { running: 0, most: 0, started: [] as number[] };
  const work = (i: number) => async () => {
    state.started.push(i);
    state.running++;
    state.most = Math.max(state.most, state.running);
    await new Promise((r) => setTimeout(r, 5));
    state.running--;
    if (i === failing) throw new Error('fails');
    return i;
  };
  return { state, work };
}

test('at most the limit run at once, the rest start in order as slots free up, and a failure frees its slot', async () => {
  const limited = concurrencyLimit(2);
  const { state, work } = tracked(1);
  const results = await Promise.allSettled([0, 1, 2, 3, 4, 5].map((i) => limited(work(i))));
  expect(state.most).toBe(2);
  expect(state.started).toEqual([0, 1, 2, 3, 4, 5]);
  expect(results).toEqual([
    { status: 'fulfilled', value: 0 },
    { status: 'rejected', reason: new Error('fails') },
    { status: 'fulfilled', value: 2 },
    { status: 'fulfilled', value: 3 },
    { status: 'fulfilled', value: 4 },
    { status: 'fulfilled', value: 5 },
  ]);
  // Every slot came back: a full round runs again.
  expect(await Promise.all([6, 7, 8].map((i) => limited(async () => i)))).toEqual([6, 7, 8]);
});
