// The statement that turns due read notices into message.read events.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { rows } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

/**
 * Takes up to `limit` notices due by `now` (rows another worker holds are skipped) and deletes them, each with the
 * highest read mark of the room's other members who share their receipts: what the event tells the sender.
 */
export async function takeDueNotices(client: SqlClient, now: Date, limit: number) {
  return rows(
    client,
    chatDb
      .with('due', (q) =>
        q
          .selectFrom('read_notices')
          .select(['room_id', 'sender_id'])
          .where('due_at', '<=', now)
          .orderBy('due_at')
          .limit(limit)
          .forUpdate()
          .skipLocked(),
      )
      .with('gone', (q) =>
        q
          .deleteFrom('read_notices')
          .using('due')
          .whereRef('read_notices.room_id', '=', 'due.room_id')
          .whereRef('read_notices.sender_id', '=', 'due.sender_id')
          .returning(['read_notices.room_id', 'read_notices.sender_id']),
      )
      .selectFrom('gone as g')
      .select((eb) => [
        'g.room_id',
        'g.sender_id',
        eb
          .selectFrom('room_members as m')
          .leftJoin('receipt_settings as s', 's.account_id', 'm.account_id')
          .select((x) => x.fn.max('m.last_read_seq').as('seq'))
          .whereRef('m.room_id', '=', 'g.room_id')
          .whereRef('m.account_id', '<>', 'g.sender_id')
          .where('m.last_read_at', 'is not', null)
          .where((x) => x.fn.coalesce('s.share_read_receipts', sql<boolean>`true`), '=', true)
          .$asScalar()
          .as('last_read_seq'),
      ]),
  );
}

export const examples: QueryExamples = {
  takeDueNotices: (db) => takeDueNotices(db, example.at, 100),
};
