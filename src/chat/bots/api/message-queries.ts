// The statements of a bot's messages: a send (the chat's own send and reply statements) and what it adds after the
// insert, the message a method names by its message_id (the room's sequence number), an edit, and the bot's reactions.
import type { SqlClient } from '../../../platform/db/sql.js';
import { affected, firstRow, hotRows, rows, type Runner } from '../../../platform/db/typed.js';
import { example, type QueryExamples } from '../../../platform/db/query-examples.js';
import type { StoredFormatting } from '../../base/formatting.js';
import { chatDb } from '../../base/tables.js';
import { plainSendStatement, type SendValues } from '../../messages/send-queries.js';
import { bumpStatement, replyStatement, type BumpValues, type ReplyValues } from '../../threads/reply-queries.js';
import type { BotAttachment } from '../telegram.js';

/** A top-level message through the chat's send: no row, or a row with a null id, when the sender is no member. */
export async function sendPlain(client: SqlClient, values: SendValues) {
  const [sent] = await hotRows(client, plainSendStatement.bind(values));
  return sent;
}

/** The room's next sequence number for a reply; undefined when the sender is not a member. */
export async function bumpForReply(client: SqlClient, values: BumpValues): Promise<number | undefined> {
  const bump = await firstRow(client, bumpStatement.bind(values));
  return bump?.last_seq;
}

/** The reply through the chat's reply statement: no row, or a null id, when its root is recalled or gone. */
export async function insertReply(client: SqlClient, values: ReplyValues) {
  return firstRow(client, replyStatement.bind(values));
}

/** What the send's insert left out: the message's formatting and files, as JSON. */
export async function setMessageExtras(client: SqlClient, messageId: string, extra: { formatting?: string; attachments?: string }) {
  await affected(client, chatDb.updateTable('messages').set(extra).where('id', '=', messageId));
}

/** The message's inline keyboard or reply markup, as JSON. */
export async function setMessageMarkup(db: Runner, messageId: string, set: { inline_keyboard: string } | { reply_markup: string }) {
  await affected(db, chatDb.updateTable('messages').set(set).where('id', '=', messageId));
}

/** The message a reply names, with its sender. */
export async function replyTarget(db: Runner, roomId: string, seq: number) {
  return firstRow(db, chatDb.selectFrom('messages').select(['id', 'sender_id']).where('room_id', '=', roomId).where('seq', '=', seq));
}

/** The message of this sequence number, recalled or not. */
export async function messageBySeq(db: Runner, roomId: string, seq: number) {
  return firstRow(db, chatDb.selectFrom('messages').select(['id', 'recalled_at']).where('room_id', '=', roomId).where('seq', '=', seq));
}

/** The id of the message of this sequence number unless it is recalled. */
export async function liveMessageId(db: Runner, roomId: string, seq: number): Promise<string | undefined> {
  const message = await firstRow(
    db,
    chatDb.selectFrom('messages').select('id').where('room_id', '=', roomId).where('seq', '=', seq).where('recalled_at', 'is', null),
  );
  return message?.id;
}

/** The messages of these sequence numbers that are not recalled, in their order. */
export async function liveMessagesBySeq(db: Runner, roomId: string, seqs: number[]) {
  return rows(
    db,
    chatDb
      .selectFrom('messages')
      .select(['id', 'sender_id'])
      .where('room_id', '=', roomId)
      .where('seq', 'in', seqs)
      .where('recalled_at', 'is', null)
      .orderBy('seq'),
  );
}

/** What a copy takes of a message that is not recalled: its text, files and formatting. */
export async function copySource(db: Runner, roomId: string, seq: number) {
  return firstRow(
    db,
    chatDb
      .selectFrom('messages')
      .select((eb) => [
        'text',
        eb.ref('attachments').$castTo<BotAttachment[] | null>().as('attachments'),
        eb.ref('formatting').$castTo<StoredFormatting[] | null>().as('formatting'),
      ])
      .where('room_id', '=', roomId)
      .where('seq', '=', seq)
      .where('recalled_at', 'is', null),
  );
}

/** The message to edit, locked for the edit. */
export async function lockMessageToEdit(client: SqlClient, roomId: string, seq: number) {
  return firstRow(
    client,
    chatDb
      .selectFrom('messages')
      .select(['id', 'sender_id', 'text', 'inline_keyboard', 'attachments', 'formatting', 'recalled_at'])
      .where('room_id', '=', roomId)
      .where('seq', '=', seq)
      .forUpdate(),
  );
}

export interface EditedMessage {
  text: string | null;
  at: Date;
  /** JSON, or null for none. */
  inlineKeyboard: string | null;
  /** JSON, or null for none. */
  formatting: string | null;
}

export async function writeEdit(client: SqlClient, messageId: string, edit: EditedMessage): Promise<void> {
  await affected(
    client,
    chatDb
      .updateTable('messages')
      .set({ text: edit.text, edited_at: edit.at, inline_keyboard: edit.inlineKeyboard, formatting: edit.formatting })
      .where('id', '=', messageId),
  );
}

/** The emojis the account reacted with on the message. */
export async function reactionsOf(db: Runner, messageId: string, accountId: string) {
  return rows(
    db,
    chatDb.selectFrom('message_reactions').select('emoji').where('message_id', '=', messageId).where('account_id', '=', accountId),
  );
}

const send = { id: example.id, room: example.otherId, sender: example.otherId, time: example.at };

export const examples: QueryExamples = {
  sendPlain: (db) => sendPlain(db, { ...send, text: example.text }),
  bumpForReply: (db) => bumpForReply(db, { room: example.id, sender: example.otherId, time: example.at, clientMessageId: null }),
  insertReply: (db) => insertReply(db, { ...send, seq: 7, text: example.text, clientMessageId: null, named: example.otherId }),
  setMessageExtras: (db) => setMessageExtras(db, example.id, { formatting: '[]', attachments: '[]' }),
  setMessageMarkup: (db) => setMessageMarkup(db, example.id, { inline_keyboard: '[]' }),
  replyTarget: (db) => replyTarget(db, example.id, 7),
  messageBySeq: (db) => messageBySeq(db, example.id, 7),
  liveMessageId: (db) => liveMessageId(db, example.id, 7),
  liveMessagesBySeq: (db) => liveMessagesBySeq(db, example.id, [7, 8]),
  copySource: (db) => copySource(db, example.id, 7),
  lockMessageToEdit: (db) => lockMessageToEdit(db, example.id, 7),
  writeEdit: (db) => writeEdit(db, example.id, { text: example.text, at: example.at, inlineKeyboard: '[]', formatting: null }),
  reactionsOf: (db) => reactionsOf(db, example.id, example.otherId),
};
