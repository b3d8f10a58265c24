// The statement that finds expired messages: per room with a retention (its own, or its creator's customer's
// default; the shorter when both), the oldest messages past it, by the index messages_room_created. A plain read:
// it locks nothing, so a send never waits on it.
import { sql } from 'kysely';
import { rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

/** At most `limit` ids of messages created before `now` minus their room's retention. */
export async function expiredMessages(db: Runner, now: Date, limit: number): Promise<string[]> {
  const found = await rows(
    db,
    chatDb
      .selectFrom('rooms as r')
      .innerJoin('accounts as a', 'a.id', 'r.created_by')
      .leftJoin('room_retention as rr', 'rr.room_id', 'r.id')
      .leftJoin('customer_retention as cr', (join) =>
        join.onRef('cr.module_code', '=', 'a.module_code').onRef('cr.customer_account_id', '=', 'a.customer_account_id'),
      )
      .innerJoinLateral(
        (eb) =>
          eb
            .selectFrom('messages as m')
            .select('m.id')
            .whereRef('m.room_id', '=', 'r.id')
            .where('m.created_at', '<', sql<Date>`${now}::timestamptz - make_interval(days => least(rr.days, cr.days))`)
            .orderBy('m.created_at')
            .limit(limit)
            .as('x'),
        (join) => join.onTrue(),
      )
      .select('x.id')
      .where((eb) => eb.or([eb('rr.days', 'is not', null), eb('cr.days', 'is not', null)]))
      .limit(limit),
  );
  return found.map((r) => r.id);
}

export const examples: QueryExamples = {
  expiredMessages: (db) => expiredMessages(db, example.at, 500),
};
