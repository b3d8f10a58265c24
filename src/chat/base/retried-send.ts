// A send retried with the same clientMessageId (or Idempotency-Key) answers the message stored the first time.
import type { Caller } from './context.js';
import type { ChatDeps } from './deps.js';
import { asMessageRow, messageView, type MessageView } from './message-views.js';
import { sentMessage } from './queries.js';
import { roomNotFound } from './membership.js';

/** The message a retried send stored first, for a caller who is still a member. */
export async function firstSend(deps: ChatDeps, caller: Caller, roomId: string, clientMessageId: string): Promise<MessageView> {
  const row = await sentMessage(deps.sql, caller.accountId, roomId, clientMessageId);
  if (!row || !row.member) throw roomNotFound();
  return messageView(asMessageRow(row));
}
