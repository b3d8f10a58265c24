// The stored row of a reminder and its API view.
import type { Selectable } from 'kysely';
import type { Recurrence } from './recurrence.js';
import type { EventFields } from '../events/topics.js';
import type { ChatTables } from '../base/tables.js';

export type ReminderStatus = 'ACTIVE' | 'DONE' | 'CANCELLED';
export type ReminderKind = 'ONE_TIME' | 'RECURRING';

/** The row's kind, rule and status, narrowed to what the table's checks and the service store. */
export type ReminderStates = { kind: ReminderKind; recurrence: Recurrence | null; status: ReminderStatus };

export type ReminderRow = Omit<Selectable<ChatTables['reminders']>, keyof ReminderStates> & ReminderStates;

export interface ReminderView {
  id: string;
  ownerId: string;
  roomId: string;
  text: string;
  kind: ReminderKind;
  remindAt: string | null;
  recurrence: Recurrence | null;
  status: Exclude<ReminderStatus, 'CANCELLED'>;
  nextFireAt: string | null;
  lastFiredAt: string | null;
  fireCount: number;
  createdAt: string;
  updatedAt: string;
}

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/** Cancelled reminders never reach a view: the API answers 404 for them. */
export function reminderView(row: ReminderRow): ReminderView {
  if (row.status === 'CANCELLED') throw new Error('a cancelled reminder has no view');
  return {
    id: row.id,
    ownerId: row.owner_id,
    roomId: row.room_id,
    text: row.text,
    kind: row.kind,
    remindAt: iso(row.remind_at),
    recurrence: row.recurrence,
    status: row.status,
    nextFireAt: iso(row.next_fire_at),
    lastFiredAt: iso(row.last_fired_at),
    fireCount: row.fire_count,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The owner's view of a change, for the outbox (accounts audience: the owner only). */
export function reminderEvent(row: ReminderRow): EventFields<'reminder.created'> {
  return {
    reminderId: row.id,
    ownerId: row.owner_id,
    roomId: row.room_id,
    kind: row.kind,
    status: row.status,
    nextFireAt: iso(row.next_fire_at),
  };
}
