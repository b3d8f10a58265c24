// The tables chat/reminders owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const ReminderEntity = defineEntity({
  name: 'Reminder',
  tableName: 'reminders',
  properties: {
    id: p.uuid().primary(),
    ownerId: reference(p.uuid().fieldName('owner_id'), 'Account', 'reminders_owner_id_fkey'),
    roomId: reference(p.uuid().fieldName('room_id'), 'Room', 'reminders_room_id_fkey'),
    botId: reference(p.uuid().fieldName('bot_id'), 'Account', 'reminders_bot_id_fkey'),
    text: p.text(),
    kind: p.text(),
    remindAt: p.datetime().fieldName('remind_at').nullable(),
    recurrence: p.json<unknown>().nullable(),
    status: p.text(),
    nextFireAt: p.datetime().fieldName('next_fire_at').nullable(),
    lastFiredAt: p.datetime().fieldName('last_fired_at').nullable(),
    fireCount: p.integer().fieldName('fire_count').defaultRaw('0'),
    createdAt: p.datetime().fieldName('created_at'),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
  indexes: [
    { name: 'reminders_due', properties: ['nextFireAt', 'id'], where: "(status = 'ACTIVE'::text)" },
    {
      name: 'reminders_by_owner',
      properties: ['ownerId', 'nextFireAt', 'id'],
      where: "(status = 'ACTIVE'::text)",
    },
  ],
  checks: [
    { name: 'reminders_kind_check', expression: "((kind = ANY (ARRAY['ONE_TIME'::text, 'RECURRING'::text])))" },
    {
      name: 'reminders_status_check',
      expression: "((status = ANY (ARRAY['ACTIVE'::text, 'DONE'::text, 'CANCELLED'::text])))",
    },
    {
      name: 'reminders_check',
      expression: "((((kind = 'ONE_TIME'::text) = (remind_at IS NOT NULL)) AND ((kind = 'RECURRING'::text) = (recurrence IS NOT NULL))))",
    },
    { name: 'reminders_check1', expression: "(((status = 'ACTIVE'::text) = (next_fire_at IS NOT NULL)))" },
  ],
});
export type Reminder = InferEntity<typeof ReminderEntity>;

export const ReminderOccurrenceEntity = defineEntity({
  name: 'ReminderOccurrence',
  tableName: 'reminder_occurrences',
  properties: {
    reminderId: reference(p.uuid().primary().fieldName('reminder_id'), 'Reminder', 'reminder_occurrences_reminder_id_fkey'),
    occurrenceAt: p.datetime().primary().fieldName('occurrence_at'),
    messageId: p.uuid().fieldName('message_id').nullable(),
    skippedReason: p.text().fieldName('skipped_reason').nullable(),
    firedAt: p.datetime().fieldName('fired_at'),
  },
  uniques: [{ name: 'reminder_occurrences_message_id_key', properties: ['messageId'] }],
});
export type ReminderOccurrence = InferEntity<typeof ReminderOccurrenceEntity>;
