// The message columns of a message view as typed selections over the messages entity (the row aliased `m`): what
// base/message-views.ts's messageColumns lists, with the type and the stored jsonb columns given their stored shapes,
// and the caller's hidden flag.
import type { ExpressionBuilder } from 'kysely';
import type { ChatTables } from '../base/tables.js';
import { type MessageRow } from '../base/message-views.js';
import { hiddenBy } from '../base/message-queries.js';

type Messages = ExpressionBuilder<ChatTables & { m: ChatTables['messages'] }, 'm'>;

/** The columns of MessageRow, without the per-caller and thread ones. */
export function messageSelection(eb: Messages) {
  return [
    'm.id',
    'm.room_id',
    'm.seq',
    'm.sender_id',
    eb.ref('m.type').$castTo<MessageRow['type']>().as('type'),
    'm.text',
    'm.client_message_id',
    'm.thread_root_id',
    'm.created_at',
    'm.edited_at',
    'm.recalled_at',
    'm.forwarded_from_room_id',
    'm.forwarded_from_message_id',
    'm.poll_id',
    eb.ref('m.attachments').$castTo<MessageRow['attachments']>().as('attachments'),
    eb.ref('m.inline_keyboard').$castTo<MessageRow['inline_keyboard']>().as('inline_keyboard'),
    eb.ref('m.entities').$castTo<MessageRow['entities']>().as('entities'),
    eb.ref('m.reply_markup').$castTo<MessageRow['reply_markup']>().as('reply_markup'),
    eb.ref('m.formatting').$castTo<MessageRow['formatting']>().as('formatting'),
  ] as const;
}

/** Whether the account hid the message. */
export function hiddenForMe(eb: Messages, accountId: string) {
  return eb
    .exists(hiddenBy(accountId, eb.ref('m.id')))
    .$castTo<boolean>()
    .as('hidden_for_me');
}
