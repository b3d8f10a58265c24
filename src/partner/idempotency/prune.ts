// Idempotency-Key records answer replays for 24 hours; older ones are removed hourly on the maintenance queue.
import type { Runner } from '../../platform/db/typed.js';
import type { PruneTask } from '../../platform/queues.js';
import { deleteExpiredRecords } from './queries.js';

export function pruneIdempotencyKeys(db: Runner): Promise<number> {
  return deleteExpiredRecords(db);
}

export function idempotencyPruneTask(db: Runner): PruneTask {
  return { scheduler: 'idempotency-prune', job: 'prune-idempotency', everyMs: 3_600_000, run: () => pruneIdempotencyKeys(db) };
}
