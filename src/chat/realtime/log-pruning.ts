// The retention of the per-account event log (REALTIME_RETENTION_HOURS): what the maintenance queue prunes.
import type { SqlPool } from '../../platform/db/sql.js';
import { deleteSupersededUserEvents, deleteUnloggedEvents, oldEventIds } from './log-pruning-queries.js';

/**
 * Removes log entries older than the retention window, a slice at a time so that no statement holds locks for
 * long; returns how many events were removed. Each account's newest row stays, since it holds the account's newest
 * seq, and so does its event until a newer one supersedes it (a later run removes both). Event 0 stands for the
 * markers of accounts whose log had been pruned past their counter when the counters were dropped.
 */
export async function pruneEventLog(db: SqlPool, retentionHours: number, now: Date, slice = 5_000): Promise<number> {
  let removed = 0;
  // Rows kept for their account come back in every run: the walk goes on past them.
  let after: number | undefined;
  for (;;) {
    const ids = await oldEventIds(db, now, retentionHours, after, slice);
    if (ids.length === 0) return removed;
    after = ids.at(-1)!;
    await deleteSupersededUserEvents(db, ids);
    removed += await deleteUnloggedEvents(db, ids);
    if (ids.length < slice) return removed;
  }
}
