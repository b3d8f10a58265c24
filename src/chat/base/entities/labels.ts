// The tables chat/labels owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const LabelEntity = defineEntity({
  name: 'Label',
  tableName: 'labels',
  properties: {
    id: p.uuid().primary(),
    ownerId: reference(p.uuid().fieldName('owner_id'), 'Account', 'labels_owner_id_fkey'),
    name: p.text(),
    color: p.text(),
    createdAt: p.datetime().fieldName('created_at'),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
  // Indexes given as DDL, which MikroORM matches by name only; the schema check compares it with the catalogue's text:
  // - an indexed expression such as lower(name), which MikroORM cannot declare
  uniques: [
    {
      name: 'labels_owner_name',
      expression: 'CREATE UNIQUE INDEX labels_owner_name ON labels USING btree (owner_id, lower(name))',
    },
  ],
});
export type Label = InferEntity<typeof LabelEntity>;

export const RoomLabelEntity = defineEntity({
  name: 'RoomLabel',
  tableName: 'room_labels',
  properties: {
    labelId: reference(p.uuid().primary().fieldName('label_id'), 'Label', 'room_labels_label_id_fkey', 'cascade'),
    roomId: reference(p.uuid().primary().fieldName('room_id'), 'Room', 'room_labels_room_id_fkey', 'cascade'),
    accountId: p.uuid().fieldName('account_id'),
    createdAt: p.datetime().fieldName('created_at'),
  },
  indexes: [{ name: 'room_labels_by_room', properties: ['accountId', 'roomId'] }],
});
export type RoomLabel = InferEntity<typeof RoomLabelEntity>;
