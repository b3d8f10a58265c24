// Idempotency-Key records answer replays for 24 hours; older ones are removed hourly on the maintenance queue.
import { sql } from 'kysely';
import { affected, type Runner } from '../../platform/db/typed.js';
import type { PruneTask } from '../../platform/queues.js';
import { partnerDb } from '../base/tables.js';

export function pruneIdempotencyKeys(db: Runner): Promise<number> {
  return affected(db, partnerDb.deleteFrom('idempotency_keys').where('created_at', '<', sql<Date>`now() - interval '24 hours'`));
}

export function idempotencyPruneTask(db: Runner): PruneTask {
  return { scheduler: 'idempotency-prune', job: 'prune-idempotency', everyMs: 3_600_000, run: () => pruneIdempotencyKeys(db) };
}
