// The tables chat/drafts owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const DraftEntity = defineEntity({
  name: 'Draft',
  tableName: 'drafts',
  properties: {
    accountId: reference(p.uuid().primary().fieldName('account_id'), 'Account', 'drafts_account_id_fkey'),
    roomId: reference(p.uuid().primary().fieldName('room_id'), 'Room', 'drafts_room_id_fkey', 'cascade'),
    text: p.text(),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
});
export type Draft = InferEntity<typeof DraftEntity>;
