// The table chat/mentions owns, as the migration creates it; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

/** One mention of one account in one message: the account's inbox row, read when read_at is set or the read mark passes seq. */
export const MentionEntity = defineEntity({
  name: 'Mention',
  tableName: 'mentions',
  properties: {
    accountId: reference(p.uuid().primary().fieldName('account_id'), 'Account', 'mentions_account_id_fkey'),
    messageId: reference(p.uuid().primary().fieldName('message_id'), 'Message', 'mentions_message_id_fkey', 'cascade'),
    roomId: reference(p.uuid().fieldName('room_id'), 'Room', 'mentions_room_id_fkey', 'cascade'),
    seq: p.bigint('number'),
    createdAt: p.datetime().fieldName('created_at'),
    readAt: p.datetime().fieldName('read_at').nullable(),
  },
  // Given as DDL (descending columns, a partial index), matched by name; the schema check compares the text.
  indexes: [
    {
      name: 'mentions_inbox',
      expression: 'CREATE INDEX mentions_inbox ON mentions USING btree (account_id, created_at DESC, message_id DESC)',
    },
    { name: 'mentions_unread', properties: ['accountId', 'roomId', 'seq'], where: '(read_at IS NULL)' },
    // the cascade when a message is deleted for good (src/chat/expiry)
    { name: 'mentions_message', properties: ['messageId'] },
  ],
});
export type Mention = InferEntity<typeof MentionEntity>;
