// The statements of the event log's retention: a slice of old events, then their removal where nothing still needs them.
import { sql } from 'kysely';
import { affected, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

/** Ids of up to `slice` events older than the retention window, after id `after` when given, in id order. */
export async function oldEventIds(db: Runner, now: Date, retentionHours: number, after: number | undefined, slice: number) {
  const found = await rows(
    db,
    chatDb
      .selectFrom('event_log')
      .select('id')
      .where('created_at', '<', sql<Date>`${now}::timestamptz - make_interval(hours => ${retentionHours}::int)`)
      .$if(after !== undefined, (q) => q.where('id', '>', after!))
      .orderBy('id')
      .limit(slice),
  );
  return found.map((r) => r.id);
}

/** Deletes the log rows of these events (and of event 0) that a newer row of the same account supersedes. */
export async function deleteSupersededUserEvents(db: Runner, eventIds: number[]): Promise<void> {
  await affected(
    db,
    chatDb
      .deleteFrom('user_events as u')
      .where('u.event_id', '=', sql<number>`any(${[0, ...eventIds]}::bigint[])`)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('user_events as newer')
            .select('newer.seq')
            .whereRef('newer.account_id', '=', 'u.account_id')
            .whereRef('newer.seq', '>', 'u.seq'),
        ),
      ),
  );
}

/** Deletes those of these events that no log row refers to any more; how many. */
export async function deleteUnloggedEvents(db: Runner, eventIds: number[]): Promise<number> {
  return affected(
    db,
    chatDb
      .deleteFrom('event_log as e')
      .where('e.id', '=', sql<number>`any(${eventIds}::bigint[])`)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('user_events as u').select('u.seq').whereRef('u.event_id', '=', 'e.id'))),
      ),
  );
}

export const examples: QueryExamples = {
  oldEventIds: (db) => oldEventIds(db, example.at, 24, 1, 5_000),
  deleteSupersededUserEvents: (db) => deleteSupersededUserEvents(db, [1]),
  deleteUnloggedEvents: (db) => deleteUnloggedEvents(db, [1]),
};
