// Idempotency-Key records answer replays for 24 hours; older ones are removed hourly on the maintenance queue.
import type { Queryable } from '../../platform/db/queryable.js';
import type { PruneTask } from '../../platform/queues.js';

export async function pruneIdempotencyKeys(db: Queryable): Promise<number> {
  const res = await db.query("delete from idempotency_keys where created_at < now() - interval '24 hours'");
  return res.rowCount ?? 0;
}

export function idempotencyPruneTask(db: Queryable): PruneTask {
  return { scheduler: 'idempotency-prune', job: 'prune-idempotency', everyMs: 3_600_000, run: () => pruneIdempotencyKeys(db) };
}
