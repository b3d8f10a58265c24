// The retention job (`expire-messages` on the maintenance queue): deletes what the policies no longer cover, batch
// by batch. Each batch is one expungeMessages call, its own short transaction with its message.expired events, so a
// worker that stops between batches loses nothing and repeats nothing: the next run finds what is left.
import type { PruneTask } from '../../platform/queues.js';
import { expungeBatch, expungeMessages, type ExpungeDeps } from '../expiry/expunge.js';
import { expiredMessages } from './expiry-queries.js';

/** How long one run keeps taking batches: the maintenance queue runs one job at a time. */
export const runBudgetMs = 2_000;

/** Deletes expired messages until none is left or the budget is spent; how many were deleted. */
export async function expireMessages(deps: ExpungeDeps, budgetMs = runBudgetMs, batch = expungeBatch): Promise<number> {
  const started = Date.now();
  let deleted = 0;
  for (;;) {
    const ids = await expiredMessages(deps.sql, deps.clock.now(), batch);
    if (ids.length === 0) break;
    deleted += await expungeMessages(deps, ids, 'retention');
    if (ids.length < batch || Date.now() - started >= budgetMs) break;
  }
  return deleted;
}

/** Registered with the maintenance queue every minute. */
export function messageExpiryTask(deps: ExpungeDeps, everyMs = 60_000): PruneTask {
  return { scheduler: 'message-expiry', job: 'expire-messages', everyMs, run: () => expireMessages(deps) };
}
