// The statements of a bot's keyboards: a press of an inline button (the message it is on, the stored press) and a
// member's current reply keyboard (the latest message that showed or removed one, and whether it was used).
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import type { StoredKeyboard } from '../base/keyboard.js';
import type { StoredReplyMarkup } from '../base/reply-keyboard.js';
import { chatDb } from '../base/tables.js';

/** The pressed message with its keyboard, its sender's live bot (if any) and whether that bot is still in the room. */
export async function pressedMessage(client: SqlClient, roomId: string, messageId: string) {
  return firstRow(
    client,
    chatDb
      .selectFrom('messages as m')
      .leftJoin('bots as b', (join) => join.onRef('b.account_id', '=', 'm.sender_id').on('b.deleted_at', 'is', null))
      .select(['m.recalled_at', 'b.id as bot_id'])
      .select((eb) => [
        eb.ref('m.inline_keyboard').$castTo<StoredKeyboard | null>().as('inline_keyboard'),
        eb
          .exists(
            eb
              .selectFrom('room_members as rm')
              .whereRef('rm.room_id', '=', 'm.room_id')
              .whereRef('rm.account_id', '=', 'm.sender_id')
              .select(sql<number>`1`.as('one')),
          )
          .as('bot_member'),
      ])
      .where('m.room_id', '=', roomId)
      .where('m.id', '=', messageId),
  );
}

export interface Press {
  id: string;
  botId: string;
  roomId: string;
  messageId: string;
  accountId: string;
  data: string;
  at: Date;
}

export async function insertPress(client: SqlClient, press: Press): Promise<void> {
  await affected(
    client,
    chatDb.insertInto('bot_callback_queries').values({
      id: press.id,
      bot_id: press.botId,
      room_id: press.roomId,
      message_id: press.messageId,
      account_id: press.accountId,
      data: press.data,
      created_at: press.at,
    }),
  );
}

/** The room's latest message (not recalled) that shows or removes a keyboard for the account. */
export async function latestReplyMarkup(db: Runner, roomId: string, accountId: string) {
  return firstRow(
    db,
    chatDb
      .selectFrom('messages as m')
      .select(['m.id', 'm.seq', sql<StoredReplyMarkup>`m.reply_markup`.as('markup')])
      .where('m.room_id', '=', roomId)
      .where('m.reply_markup', 'is not', null)
      .where('m.recalled_at', 'is', null)
      .where(sql<string>`m.reply_markup->>'kind'`, 'in', ['keyboard', 'remove_keyboard'])
      .where((eb) =>
        eb.or([
          eb(sql<boolean>`(m.reply_markup->>'selective')::boolean`, '=', false),
          eb(sql<boolean>`m.reply_markup->'recipients' ? ${accountId}`, '=', true),
        ]),
      )
      .orderBy('m.seq', 'desc')
      .limit(1),
  );
}

/** Whether the account sent one of the texts in the room after the message of sequence number `after`. */
export async function sentOneOf(db: Runner, roomId: string, accountId: string, after: number, texts: string[]): Promise<boolean> {
  const sent = await firstRow(
    db,
    chatDb
      .selectFrom('messages')
      .select(sql<number>`1`.as('one'))
      .where('room_id', '=', roomId)
      .where('sender_id', '=', accountId)
      .where('seq', '>', after)
      .where('text', '=', sql<string>`any(${texts}::text[])`)
      .limit(1),
  );
  return sent !== undefined;
}

export const examples: QueryExamples = {
  pressedMessage: (db) => pressedMessage(db, example.id, example.otherId),
  insertPress: (db) =>
    insertPress(db, {
      id: example.id,
      botId: example.otherId,
      roomId: example.id,
      messageId: example.otherId,
      accountId: example.id,
      data: example.text,
      at: example.at,
    }),
  latestReplyMarkup: (db) => latestReplyMarkup(db, example.id, example.otherId),
  sentOneOf: (db) => sentOneOf(db, example.id, example.otherId, 1, [example.text]),
};
