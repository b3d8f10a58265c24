// The tables chat/messages owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const MessageEntity = defineEntity({
  name: 'Message',
  tableName: 'messages',
  properties: {
    id: p.uuid().primary(),
    roomId: reference(p.uuid().fieldName('room_id'), 'Room', 'messages_room_id_fkey', 'cascade'),
    seq: p.bigint('number'),
    senderId: reference(p.uuid().fieldName('sender_id'), 'Account', 'messages_sender_id_fkey'),
    type: p.text(),
    text: p.text().nullable(),
    clientMessageId: p.text().fieldName('client_message_id').nullable(),
    threadRootId: p.uuid().fieldName('thread_root_id').nullable(),
    createdAt: p.datetime().fieldName('created_at'),
    editedAt: p.datetime().fieldName('edited_at').nullable(),
    recalledAt: p.datetime().fieldName('recalled_at').nullable(),
    forwardedFromRoomId: p.uuid().fieldName('forwarded_from_room_id').nullable(),
    forwardedFromMessageId: p.uuid().fieldName('forwarded_from_message_id').nullable(),
    replyCount: p.integer().fieldName('reply_count').defaultRaw('0'),
    lastReplyAt: p.datetime().fieldName('last_reply_at').nullable(),
    lastReplyId: p.uuid().fieldName('last_reply_id').nullable(),
    pollId: p.uuid().fieldName('poll_id').nullable(),
    attachments: p.json<unknown>().nullable(),
    inlineKeyboard: p.json<unknown>().fieldName('inline_keyboard').nullable(),
    /** A bot's reply keyboard, its removal or a forced reply (src/chat/base/reply-keyboard.ts); null when none. */
    replyMarkup: p.json<unknown>().fieldName('reply_markup').nullable(),
    /** Mention entities found in the text (src/chat/mentions); null when none. */
    entities: p.json<unknown>().nullable(),
    /** Formatting spans of a bot's text (src/chat/base/formatting.ts); null when none. */
    formatting: p.json<unknown>().nullable(),
  },
  // Indexes given as DDL, which MikroORM matches by name only; the schema check compares it with the catalogue's text:
  // - descending columns: MikroORM reads DESC back as ASC when the name ends an earlier column's (id after room_id)
  // - an operator class (jsonb_path_ops), which MikroORM cannot declare
  // - an expression (the words of the text, for search)
  indexes: [
    { name: 'messages_thread', properties: ['threadRootId', 'seq'], where: '(thread_root_id IS NOT NULL)' },
    {
      name: 'messages_room_top_level',
      properties: ['roomId', 'seq'],
      include: ['senderId', 'recalledAt', 'id'],
      where: '(thread_root_id IS NULL)',
    },
    {
      name: 'messages_active_threads',
      expression:
        'CREATE INDEX messages_active_threads ON messages USING btree (room_id, last_reply_at DESC, id DESC) WHERE ((reply_count > 0) AND (thread_root_id IS NULL))',
    },
    {
      name: 'messages_search',
      expression:
        "CREATE INDEX messages_search ON messages USING gin (to_tsvector('simple'::regconfig, text)) WHERE ((text IS NOT NULL) AND (recalled_at IS NULL))",
    },
    {
      name: 'messages_reply_markup',
      expression: 'CREATE INDEX messages_reply_markup ON messages USING btree (room_id, seq DESC) WHERE (reply_markup IS NOT NULL)',
    },
    // the retention job's oldest messages of a room (src/chat/retention)
    { name: 'messages_room_created', properties: ['roomId', 'createdAt'] },
    {
      name: 'messages_attachments',
      expression: 'CREATE INDEX messages_attachments ON messages USING gin (attachments jsonb_path_ops) WHERE (attachments IS NOT NULL)',
    },
  ],
  uniques: [
    { name: 'messages_room_seq', properties: ['roomId', 'seq'] },
    {
      name: 'messages_client_id',
      properties: ['roomId', 'senderId', 'clientMessageId'],
      where: '(client_message_id IS NOT NULL)',
    },
  ],
});
export type Message = InferEntity<typeof MessageEntity>;

export const MessageHideEntity = defineEntity({
  name: 'MessageHide',
  tableName: 'message_hides',
  properties: {
    accountId: reference(p.uuid().primary().fieldName('account_id'), 'Account', 'message_hides_account_id_fkey'),
    messageId: reference(p.uuid().primary().fieldName('message_id'), 'Message', 'message_hides_message_id_fkey', 'cascade'),
    roomId: p.uuid().fieldName('room_id'),
    hiddenAt: p.datetime().fieldName('hidden_at'),
  },
  // message_hides_message: the cascade when a message is deleted for good (src/chat/expiry)
  indexes: [
    { name: 'message_hides_room', properties: ['accountId', 'roomId'] },
    { name: 'message_hides_message', properties: ['messageId'] },
  ],
});
export type MessageHide = InferEntity<typeof MessageHideEntity>;

export const MessageReactionEntity = defineEntity({
  name: 'MessageReaction',
  tableName: 'message_reactions',
  properties: {
    messageId: reference(p.uuid().primary().fieldName('message_id'), 'Message', 'message_reactions_message_id_fkey', 'cascade'),
    emoji: p.text().primary(),
    accountId: reference(p.uuid().primary().fieldName('account_id'), 'Account', 'message_reactions_account_id_fkey'),
    createdAt: p.datetime().fieldName('created_at'),
  },
});
export type MessageReaction = InferEntity<typeof MessageReactionEntity>;
