// The tables chat/retention owns, as the migration creates them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

const daysInRange = (table: string) => ({ name: `${table}_days_check`, expression: '(((days >= 1) AND (days <= 3650)))' });

/** A customer's default message retention: messages of its rooms older than `days` are deleted. No row: kept for ever. */
export const CustomerRetentionEntity = defineEntity({
  name: 'CustomerRetention',
  tableName: 'customer_retention',
  properties: {
    moduleCode: p.text().primary().fieldName('module_code'),
    customerAccountId: p.text().primary().fieldName('customer_account_id'),
    days: p.integer(),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
  checks: [daysInRange('customer_retention')],
});
export type CustomerRetention = InferEntity<typeof CustomerRetentionEntity>;

/** A room's own retention, never longer than its customer's default. No row: the room inherits the default. */
export const RoomRetentionEntity = defineEntity({
  name: 'RoomRetention',
  tableName: 'room_retention',
  properties: {
    roomId: reference(p.uuid().primary().fieldName('room_id'), 'Room', 'room_retention_room_id_fkey', 'cascade'),
    days: p.integer(),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
  checks: [daysInRange('room_retention')],
});
export type RoomRetention = InferEntity<typeof RoomRetentionEntity>;
