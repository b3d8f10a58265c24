// The statements of read receipts: the message and the caller's standing, the readers of a message, and the
// account's setting.
import { sql, type ExpressionBuilder } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb, type ChatTables } from '../base/tables.js';

/** Whether the account shares its read receipts: no row is the default, true. */
const shares = (eb: ExpressionBuilder<ChatTables, never>, accountId: string) =>
  eb.fn.coalesce(
    eb.selectFrom('receipt_settings').select('share_read_receipts').where('account_id', '=', accountId).$asScalar(),
    sql<boolean>`true`,
  );

/** In one round trip: whether the caller is a member of the room, the message's place and sender, the caller's setting. */
export async function receiptTarget(db: Runner, callerId: string, roomId: string, messageId: string) {
  return firstRow(
    db,
    chatDb.selectNoFrom((eb) => [
      eb
        .exists(eb.selectFrom('room_members').select('account_id').where('room_id', '=', roomId).where('account_id', '=', callerId))
        .as('member'),
      eb.selectFrom('messages').select('seq').where('room_id', '=', roomId).where('id', '=', messageId).$asScalar().as('seq'),
      eb.selectFrom('messages').select('sender_id').where('room_id', '=', roomId).where('id', '=', messageId).$asScalar().as('sender_id'),
      shares(eb, callerId).as('shares'),
    ]),
  );
}

/**
 * The members whose read mark is at or past `seq`, newest read first: not the sender, not those who never moved
 * their mark (a mark set on joining is no read), not those who do not share their receipts.
 */
export async function readersOf(db: Runner, roomId: string, seq: number, senderId: string) {
  return rows(
    db,
    chatDb
      .selectFrom('room_members as m')
      .leftJoin('receipt_settings as s', 's.account_id', 'm.account_id')
      .select(['m.account_id', 'm.last_read_at'])
      .where('m.room_id', '=', roomId)
      .where('m.last_read_seq', '>=', seq)
      .where('m.account_id', '<>', senderId)
      .where('m.last_read_at', 'is not', null)
      .where((eb) => eb.fn.coalesce('s.share_read_receipts', sql<boolean>`true`), '=', true)
      .orderBy('m.last_read_at', 'desc')
      .orderBy('m.account_id'),
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
  receiptTarget: (db) => receiptTarget(db, example.id, example.otherId, example.id),
  readersOf: (db) => readersOf(db, example.otherId, 10, example.id),
  receiptSetting: (db) => receiptSetting(db, example.id),
  writeReceiptSetting: (db) => writeReceiptSetting(db, example.id, false, example.at),
};
