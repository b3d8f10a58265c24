// The statements of one message: reading it (locked when asked), its files, and its edit, hide, restore and recall.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { asMessageRow, messageColumnNames, type MessageRow } from '../base/message-views.js';
import { hiddenForMe } from '../base/message-queries.js';
import { chatDb } from '../base/tables.js';

/** The message of the room with the caller's hidden flag, locked in the given mode (access.ts says which when). */
export async function messageOf(
  db: Runner,
  roomId: string,
  messageId: string,
  callerId: string,
  lock: 'update' | 'key share' | null = null,
) {
  return firstRow(
    db,
    chatDb
      .selectFrom('messages')
      .select([...messageColumnNames, 'reply_count', hiddenForMe(callerId)])
      .where('room_id', '=', roomId)
      .where('id', '=', messageId)
      .$if(lock === 'update', (q) => q.forUpdate())
      .$if(lock === 'key share', (q) => q.forKeyShare()),
  );
}

/** Stores the message's files; the message as stored. */
export async function setAttachments(client: SqlClient, messageId: string, attachments: unknown): Promise<MessageRow> {
  const updated = await firstRow(
    client,
    chatDb
      .updateTable('messages')
      .set({ attachments: JSON.stringify(attachments) })
      .where('id', '=', messageId)
      .returning(messageColumnNames),
  );
  return asMessageRow(updated!);
}

/** The edited message with the caller's hidden flag. */
export async function editMessage(client: SqlClient, roomId: string, messageId: string, callerId: string, text: string, at: Date) {
  const edited = await firstRow(
    client,
    chatDb
      .updateTable('messages')
      // A plain text replaces a formatted one: the old spans would point into text that is gone.
      .set({ text, edited_at: at, formatting: null })
      .where('room_id', '=', roomId)
      .where('id', '=', messageId)
      .returning([...messageColumnNames, 'reply_count', hiddenForMe(callerId)]),
  );
  return asMessageRow(edited!);
}

/** Hides the message for the account; false when it was hidden already. */
export async function hideMessage(
  client: SqlClient,
  hide: { accountId: string; messageId: string; roomId: string; at: Date },
): Promise<boolean> {
  const hidden = await affected(
    client,
    chatDb
      .insertInto('message_hides')
      .values({ account_id: hide.accountId, message_id: hide.messageId, room_id: hide.roomId, hidden_at: hide.at })
      .onConflict((oc) => oc.columns(['account_id', 'message_id']).doNothing()),
  );
  return hidden > 0;
}

/** Shows the message to the account again; false when it was not hidden. */
export async function restoreMessage(client: SqlClient, accountId: string, messageId: string): Promise<boolean> {
  const shown = await affected(
    client,
    chatDb.deleteFrom('message_hides').where('account_id', '=', accountId).where('message_id', '=', messageId),
  );
  return shown > 0;
}

/** Locks the room row, the first lock of every send: a recall takes it before the message's. */
export async function lockRoom(client: SqlClient, roomId: string): Promise<void> {
  await rows(client, chatDb.selectFrom('rooms').select(sql.lit(1).as('locked')).where('id', '=', roomId).forNoKeyUpdate());
}

/** Erases the text and marks the message recalled; the message with the caller's hidden flag. */
export async function recallMessage(client: SqlClient, roomId: string, messageId: string, callerId: string, at: Date) {
  const recalled = await firstRow(
    client,
    chatDb
      .updateTable('messages')
      .set({ recalled_at: at, text: null })
      .where('room_id', '=', roomId)
      .where('id', '=', messageId)
      .returning([...messageColumnNames, 'reply_count', hiddenForMe(callerId)]),
  );
  return asMessageRow(recalled!);
}

/** Removes the reactions of a recalled message. */
export async function deleteReactions(client: SqlClient, messageId: string): Promise<void> {
  await affected(client, chatDb.deleteFrom('message_reactions').where('message_id', '=', messageId));
}

/** Removes the pins (personal and the room's) and the room's banner (snap) of a recalled message; which of the room's were there. */
export async function unpinRecalled(
  client: SqlClient,
  roomId: string,
  messageId: string,
): Promise<{ unpinned: boolean; unsnapped: boolean }> {
  await affected(client, chatDb.deleteFrom('personal_pins').where('message_id', '=', messageId));
  const unpinned = await affected(client, chatDb.deleteFrom('room_pins').where('room_id', '=', roomId).where('message_id', '=', messageId));
  const unsnapped = await affected(
    client,
    chatDb
      .updateTable('rooms')
      .set({ snap_message_id: null, snapped_by: null, snapped_at: null })
      .where('id', '=', roomId)
      .where('snap_message_id', '=', messageId),
  );
  return { unpinned: unpinned > 0, unsnapped: unsnapped > 0 };
}

export const examples: QueryExamples = {
  messageOf: (db) => messageOf(db, example.id, example.otherId, example.id, 'key share'),
  setAttachments: (db) => setAttachments(db, example.id, [{ uploadId: example.otherId }]),
  editMessage: (db) => editMessage(db, example.id, example.otherId, example.id, example.text, example.at),
  hideMessage: (db) => hideMessage(db, { accountId: example.id, messageId: example.otherId, roomId: example.id, at: example.at }),
  restoreMessage: (db) => restoreMessage(db, example.id, example.otherId),
  lockRoom: (db) => lockRoom(db, example.id),
  recallMessage: (db) => recallMessage(db, example.id, example.otherId, example.id, example.at),
  deleteReactions: (db) => deleteReactions(db, example.id),
  unpinRecalled: (db) => unpinRecalled(db, example.id, example.otherId),
};
