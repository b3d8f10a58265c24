// The tables chat/pins owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const RoomPinEntity = defineEntity({
  name: 'RoomPin',
  tableName: 'room_pins',
  properties: {
    roomId: reference(p.uuid().primary().fieldName('room_id'), 'Room', 'room_pins_room_id_fkey', 'cascade'),
    messageId: reference(p.uuid().primary().fieldName('message_id'), 'Message', 'room_pins_message_id_fkey', 'cascade'),
    pinnedBy: reference(p.uuid().fieldName('pinned_by'), 'Account', 'room_pins_pinned_by_fkey'),
    pinnedAt: p.datetime().fieldName('pinned_at'),
  },
  // the cascade when a message is deleted for good (src/chat/expiry)
  indexes: [{ name: 'room_pins_message', properties: ['messageId'] }],
});
export type RoomPin = InferEntity<typeof RoomPinEntity>;

export const PersonalPinEntity = defineEntity({
  name: 'PersonalPin',
  tableName: 'personal_pins',
  properties: {
    accountId: reference(p.uuid().primary().fieldName('account_id'), 'Account', 'personal_pins_account_id_fkey'),
    messageId: reference(p.uuid().primary().fieldName('message_id'), 'Message', 'personal_pins_message_id_fkey', 'cascade'),
    roomId: p.uuid().fieldName('room_id'),
    pinnedAt: p.datetime().fieldName('pinned_at'),
  },
  // personal_pins_message: the cascade when a message is deleted for good (src/chat/expiry)
  indexes: [
    { name: 'personal_pins_room', properties: ['accountId', 'roomId'] },
    { name: 'personal_pins_message', properties: ['messageId'] },
  ],
});
export type PersonalPin = InferEntity<typeof PersonalPinEntity>;
