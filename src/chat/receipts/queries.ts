// The statements of read receipts: the message and the caller's standing, the readers of a message, and the
// account's setting.
import { sql, type ExpressionBuilder } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { firstRow, hotRows, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb, type ChatTables } from '../base/tables.js';

/** Whether the account shares its read receipts: no row is the default, true. */
const shares = (eb: ExpressionBuilder<ChatTables, never>, accountId: string) =>
  eb.fn.coalesce(
    eb.selectFrom('receipt_settings').select('share_read_receipts').where('account_id', '=', accountId).$asScalar(),
    sql<boolean>`true`,
  );

/**
 * In one round trip (a hot, prepared statement): whether the caller is a member of the room, the message's place
 * and sender, the caller's setting, and the readers: the members whose read mark is at or past the message, newest
 * read first, not the sender, not those who never moved their mark (a mark set on joining is no read), not those
 * who do not share, and none at all for a caller who does not share. One row without a reader when there is none.
 */
export async function receiptsOf(db: Runner, callerId: string, roomId: string, messageId: string) {
  return hotRows(
    db,
    chatDb
      .with('t', (qb) =>
        qb.selectNoFrom((eb) => [
          eb
            .exists(eb.selectFrom('room_members').select('account_id').where('room_id', '=', roomId).where('account_id', '=', callerId))
            .as('member'),
          eb.selectFrom('messages').select('seq').where('room_id', '=', roomId).where('id', '=', messageId).$asScalar().as('seq'),
          eb
            .selectFrom('messages')
            .select('sender_id')
            .where('room_id', '=', roomId)
            .where('id', '=', messageId)
            .$asScalar()
            .as('sender_id'),
          shares(eb, callerId).as('shares'),
        ]),
      )
      .selectFrom('t')
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('room_members as m')
            .leftJoin('receipt_settings as s', 's.account_id', 'm.account_id')
            .select(['m.account_id', 'm.last_read_at'])
            .where('m.room_id', '=', roomId)
            .whereRef('m.last_read_seq', '>=', 't.seq')
            .whereRef('m.account_id', '<>', 't.sender_id')
            .where('m.last_read_at', 'is not', null)
            .where((w) => w.fn.coalesce('s.share_read_receipts', sql<boolean>`true`), '=', true)
            .where('t.shares', '=', true)
            .as('r'),
        (join) => join.onTrue(),
      )
      .select(['t.member', 't.seq', 't.sender_id', 'r.account_id', 'r.last_read_at'])
      .orderBy('r.last_read_at', 'desc')
      .orderBy('r.account_id'),
  );
}

/** The account's setting (true without a row). */
export async function receiptSetting(db: Runner, accountId: string) {
  return firstRow(
    db,
    chatDb.selectNoFrom((eb) => shares(eb, accountId).as('share')),
  );
}

/** Writes the account's setting; a write of the same value changes nothing. */
export async function writeReceiptSetting(client: SqlClient, accountId: string, share: boolean, at: Date): Promise<void> {
  await rows(
    client,
    chatDb
      .insertInto('receipt_settings')
      .values({ account_id: accountId, share_read_receipts: share, updated_at: at })
      .onConflict((oc) =>
        oc
          .column('account_id')
          .doUpdateSet((eb) => ({ share_read_receipts: eb.ref('excluded.share_read_receipts'), updated_at: eb.ref('excluded.updated_at') }))
          .whereRef('receipt_settings.share_read_receipts', '<>', 'excluded.share_read_receipts'),
      )
      .returning('account_id'),
  );
}

export const examples: QueryExamples = {
  receiptsOf: (db) => receiptsOf(db, example.id, example.otherId, example.id),
  receiptSetting: (db) => receiptSetting(db, example.id),
  writeReceiptSetting: (db) => writeReceiptSetting(db, example.id, false, example.at),
};
