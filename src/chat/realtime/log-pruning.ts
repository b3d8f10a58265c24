// The retention of the per-account event log (REALTIME_RETENTION_HOURS): what the maintenance queue prunes.
import { sql } from 'kysely';
import type { SqlPool } from '../../platform/db/sql.js';
import { affected, rows as allRows } from '../../platform/db/typed.js';
import { chatDb } from '../base/tables.js';

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
    const rows = await allRows(
      db,
      chatDb
        .selectFrom('event_log')
        .select('id')
        .where('created_at', '<', sql<Date>`${now}::timestamptz - make_interval(hours => ${retentionHours}::int)`)
        .$if(after !== undefined, (q) => q.where('id', '>', after!))
        .orderBy('id')
        .limit(slice),
    );
    if (rows.length === 0) return removed;
    const ids = rows.map((r) => r.id);
    after = ids.at(-1)!;
    await affected(
      db,
      chatDb
        .deleteFrom('user_events as u')
        .where('u.event_id', '=', sql<number>`any(${[0, ...ids]}::bigint[])`)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('user_events as newer')
              .select('newer.seq')
              .whereRef('newer.account_id', '=', 'u.account_id')
              .whereRef('newer.seq', '>', 'u.seq'),
          ),
        ),
    );
    removed += await affected(
      db,
      chatDb
        .deleteFrom('event_log as e')
        .where('e.id', '=', sql<number>`any(${ids}::bigint[])`)
        .where(({ not, exists, selectFrom }) =>
          not(exists(selectFrom('user_events as u').select('u.seq').whereRef('u.event_id', '=', 'e.id'))),
        ),
    );
    if (rows.length < slice) return removed;
  }
}
