// The stored row of a scheduled message and its API view.
import type { Selectable } from 'kysely';
import type { EventFields } from '../events/topics.js';
import type { ChatTables } from '../base/tables.js';
export type ScheduledStatus = 'PENDING' | 'SENT' | 'FAILED' | 'CANCELLED';
export type ScheduledFailure = 'SENDER_NOT_MEMBER' | 'SENDER_INACTIVE' | 'ROOM_DELETED' | 'THREAD_ROOT_RECALLED';

/** The row's status and failure reason, narrowed to the values the table's checks allow. */
export type ScheduledStates = { status: ScheduledStatus; failure_reason: ScheduledFailure | null };

export type ScheduledRow = Omit<Selectable<ChatTables['scheduled_messages']>, keyof ScheduledStates> & ScheduledStates;

export interface ScheduledView {
  id: string;
  roomId: string;
  senderId: string;
  text: string;
  threadRootId: string | null;
  sendAt: string;
  status: Exclude<ScheduledStatus, 'CANCELLED'>;
  messageId: string | null;
  failureReason: ScheduledFailure | null;
  firedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Cancelled rows never reach a view: the API answers 404 for them. */
export function scheduledView(row: ScheduledRow): ScheduledView {
  if (row.status === 'CANCELLED') throw new Error('a cancelled scheduled message has no view');
  return {
    id: row.id,
    roomId: row.room_id,
    senderId: row.sender_id,
    text: row.text,
    threadRootId: row.thread_root_id,
    sendAt: row.send_at.toISOString(),
    status: row.status,
    messageId: row.message_id,
    failureReason: row.failure_reason,
    firedAt: row.fired_at ? row.fired_at.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The owner's view of a change, for the outbox (accounts audience: the sender only). */
export function scheduledEvent(row: ScheduledRow): EventFields<'scheduled_message.created'> {
  return {
    scheduledMessageId: row.id,
    roomId: row.room_id,
    senderId: row.sender_id,
    sendAt: row.send_at.toISOString(),
    status: row.status,
  };
}
