// A send retried with the same clientMessageId (or Idempotency-Key) answers the message stored the first time.
import type { Caller } from './context.js';
import type { ChatDeps } from './deps.js';
import { sql } from 'kysely';
import { firstRow } from '../../platform/db/typed.js';
import { chatDb } from './tables.js';
import { asMessageRow, messageColumnNames, messageView, type MessageView } from './message-views.js';
import { roomNotFound } from './membership.js';

/** The message a retried send stored first, for a caller who is still a member. */
export async function firstSend(deps: ChatDeps, caller: Caller, roomId: string, clientMessageId: string): Promise<MessageView> {
  const row = await firstRow(
    deps.sql,
    chatDb
      .selectFrom('messages')
      .select((eb) => [
        ...messageColumnNames,
        eb
          .exists(
            eb
              .selectFrom('room_members')
              .select(sql.lit(1).as('one'))
              .where('room_members.room_id', '=', roomId)
              .where('room_members.account_id', '=', caller.accountId),
          )
          .as('member'),
      ])
      .where('room_id', '=', roomId)
      .where('sender_id', '=', caller.accountId)
      .where('client_message_id', '=', clientMessageId),
  );
  if (!row || !row.member) throw roomNotFound();
  return messageView(asMessageRow(row));
}
