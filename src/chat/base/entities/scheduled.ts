// The tables chat/scheduled owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const ScheduledMessageEntity = defineEntity({
  name: 'ScheduledMessage',
  tableName: 'scheduled_messages',
  properties: {
    id: p.uuid().primary(),
    roomId: reference(p.uuid().fieldName('room_id'), 'Room', 'scheduled_messages_room_id_fkey'),
    senderId: reference(p.uuid().fieldName('sender_id'), 'Account', 'scheduled_messages_sender_id_fkey'),
    text: p.text(),
    threadRootId: p.uuid().fieldName('thread_root_id').nullable(),
    sendAt: p.datetime().fieldName('send_at'),
    status: p.text(),
    messageId: p.uuid().fieldName('message_id').nullable(),
    failureReason: p.text().fieldName('failure_reason').nullable(),
    firedAt: p.datetime().fieldName('fired_at').nullable(),
    createdAt: p.datetime().fieldName('created_at'),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
  indexes: [
    { name: 'scheduled_messages_due', properties: ['sendAt', 'id'], where: "(status = 'PENDING'::text)" },
    { name: 'scheduled_messages_by_sender', properties: ['senderId', 'status', 'sendAt', 'id'] },
  ],
  uniques: [{ name: 'scheduled_messages_message_id_key', properties: ['messageId'] }],
  checks: [
    {
      name: 'scheduled_messages_status_check',
      expression: "((status = ANY (ARRAY['PENDING'::text, 'SENT'::text, 'FAILED'::text, 'CANCELLED'::text])))",
    },
    { name: 'scheduled_messages_check', expression: "(((status = 'SENT'::text) = (message_id IS NOT NULL)))" },
    {
      name: 'scheduled_messages_check1',
      expression: "(((status = 'FAILED'::text) = (failure_reason IS NOT NULL)))",
    },
  ],
});
export type ScheduledMessage = InferEntity<typeof ScheduledMessageEntity>;
