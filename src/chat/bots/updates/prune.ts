// Updates a bot has not fetched (or its webhook has not taken) within 24 hours are dropped, as Telegram does; so
// are button presses, which can no longer be answered.
import type { SqlPool } from '../../../platform/db/sql.js';
import type { PruneTask } from '../../../platform/queues.js';
import { pruneUpdatesBefore } from './queries.js';

export const updateRetentionMs = 24 * 3_600_000;

export async function pruneBotUpdates(sql: SqlPool, now: Date): Promise<number> {
  return pruneUpdatesBefore(sql, new Date(now.getTime() - updateRetentionMs));
}

/** Registered with the maintenance queue every ten minutes. */
export function botUpdatesPruneTask(sql: SqlPool): PruneTask {
  return { scheduler: 'bot-updates-prune', job: 'prune-bot-updates', everyMs: 600_000, run: (now) => pruneBotUpdates(sql, now) };
}
