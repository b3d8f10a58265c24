// A send retried with the same clientMessageId (or Idempotency-Key) answers the message stored the first time.
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { messageColumns, messageView, type MessageRow, type MessageView } from './views.js';
import { roomNotFound } from '../rooms/membership.js';

/** The message a retried send stored first, for a caller who is still a member. */
export async function firstSend(deps: ChatDeps, caller: Caller, roomId: string, clientMessageId: string): Promise<MessageView> {
  const { rows } = await deps.sql.query<MessageRow & { member: boolean }>(
    `select ${messageColumns}, exists (select 1 from room_members where room_id = $1 and account_id = $2) as member
       from messages where room_id = $1 and sender_id = $2 and client_message_id = $3`,
    [roomId, caller.accountId, clientMessageId],
  );
  const row = rows[0];
  if (!row || !row.member) throw roomNotFound();
  return messageView(row);
}
