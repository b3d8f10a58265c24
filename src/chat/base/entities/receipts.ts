// The tables chat/receipts owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

/** An account's read-receipt setting; no row is the default (shared). */
export const ReceiptSettingEntity = defineEntity({
  name: 'ReceiptSetting',
  tableName: 'receipt_settings',
  properties: {
    accountId: reference(p.uuid().primary().fieldName('account_id'), 'Account', 'receipt_settings_account_id_fkey', 'cascade'),
    shareReadReceipts: p.boolean().fieldName('share_read_receipts'),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
});
export type ReceiptSetting = InferEntity<typeof ReceiptSettingEntity>;

/**
 * A message.read event owed to a sender of a room, due at the end of its 2 s window: one row per (room, sender),
 * so reads within the window add nothing and the sender gets one event (docs/adr/0154-read-receipts.md).
 */
export const ReadNoticeEntity = defineEntity({
  name: 'ReadNotice',
  tableName: 'read_notices',
  properties: {
    roomId: reference(p.uuid().primary().fieldName('room_id'), 'Room', 'read_notices_room_id_fkey', 'cascade'),
    senderId: reference(p.uuid().primary().fieldName('sender_id'), 'Account', 'read_notices_sender_id_fkey', 'cascade'),
    dueAt: p.datetime().fieldName('due_at'),
  },
  indexes: [{ name: 'read_notices_due', properties: ['dueAt'] }],
});
export type ReadNotice = InferEntity<typeof ReadNoticeEntity>;
