// The tables chat/saved owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const SavedMessageEntity = defineEntity({
  name: 'SavedMessage',
  tableName: 'saved_messages',
  properties: {
    id: p.text().primary(),
    accountId: reference(p.uuid().fieldName('account_id'), 'Account', 'saved_messages_account_id_fkey'),
    roomId: p.uuid().fieldName('room_id'),
    messageId: reference(p.uuid().fieldName('message_id'), 'Message', 'saved_messages_message_id_fkey', 'cascade'),
    note: p.text().nullable(),
    savedAt: p.datetime().fieldName('saved_at'),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
  // Indexes given as DDL, which MikroORM matches by name only; the schema check compares it with the catalogue's text:
  // - descending columns: MikroORM reads DESC back as ASC when the name ends an earlier column's (id after room_id)
  indexes: [
    {
      name: 'saved_messages_feed',
      expression: 'CREATE INDEX saved_messages_feed ON saved_messages USING btree (account_id, saved_at DESC, id DESC)',
    },
    { name: 'saved_messages_room', properties: ['accountId', 'roomId'] },
    // the cascade when a message is deleted for good (src/chat/expiry)
    { name: 'saved_messages_message', properties: ['messageId'] },
  ],
  uniques: [{ name: 'saved_messages_account_id_message_id_key', properties: ['accountId', 'messageId'] }],
});
export type SavedMessage = InferEntity<typeof SavedMessageEntity>;
