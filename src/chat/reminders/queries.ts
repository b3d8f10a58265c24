// The statements of the owner's reminders: create, list, read, change and cancel.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';
import type { Recurrence } from './recurrence.js';
import type { ReminderKind, ReminderRow, ReminderStates } from './views.js';

const reminderColumns = [
  'id',
  'owner_id',
  'room_id',
  'bot_id',
  'text',
  'kind',
  'remind_at',
  'recurrence',
  'status',
  'next_fire_at',
  'last_fired_at',
  'fire_count',
  'created_at',
  'updated_at',
] as const;

/** The owner's reminder by id; a cancelled one is gone for the API. */
const own = (ownerId: string, id: string) =>
  chatDb
    .selectFrom('reminders')
    .select(reminderColumns)
    .where('id', '=', id)
    .where('owner_id', '=', ownerId)
    .where('status', '<>', 'CANCELLED')
    .$narrowType<ReminderStates>();

/** When and how a reminder fires. */
export interface ReminderSchedule {
  kind: ReminderKind;
  remindAt: Date | null;
  recurrence: Recurrence | null;
  nextFireAt: Date;
}

export async function insertReminder(
  client: SqlClient,
  reminder: { id: string; ownerId: string; roomId: string; botId: string; text: string; schedule: ReminderSchedule; at: Date },
): Promise<ReminderRow | undefined> {
  const { schedule } = reminder;
  return firstRow(
    client,
    chatDb
      .insertInto('reminders')
      .values({
        id: reminder.id,
        owner_id: reminder.ownerId,
        room_id: reminder.roomId,
        bot_id: reminder.botId,
        text: reminder.text,
        kind: schedule.kind,
        remind_at: schedule.remindAt,
        recurrence: schedule.recurrence === null ? null : JSON.stringify(schedule.recurrence),
        status: 'ACTIVE',
        next_fire_at: schedule.nextFireAt,
        created_at: reminder.at,
        updated_at: reminder.at,
      })
      .returning(reminderColumns)
      .$narrowType<ReminderStates>(),
  );
}

/** `count` ACTIVE reminders of the owner, soonest first, after the keyset (next_fire_at, id) when given. */
export async function activeReminders(
  db: Runner,
  ownerId: string,
  after: { at: unknown; id: string } | undefined,
  count: number,
): Promise<ReminderRow[]> {
  return rows(
    db,
    chatDb
      .selectFrom('reminders')
      .select(reminderColumns)
      .where('owner_id', '=', ownerId)
      .where('status', '=', 'ACTIVE')
      .$if(after !== undefined, (qb) => qb.where(sql<boolean>`(next_fire_at, id) > (${after!.at}::timestamptz, ${after!.id}::uuid)`))
      .orderBy('next_fire_at')
      .orderBy('id')
      .limit(count)
      .$narrowType<ReminderStates>(),
  );
}

/** The owner's reminder that is not cancelled; locked for update when asked (a fire skips it until commit). */
export async function ownReminder(db: Runner, ownerId: string, id: string, lock = false): Promise<ReminderRow | undefined> {
  return firstRow(db, lock ? own(ownerId, id).forUpdate() : own(ownerId, id));
}

export async function updateReminder(
  client: SqlClient,
  id: string,
  change: { text: string; schedule: ReminderSchedule; at: Date },
): Promise<ReminderRow | undefined> {
  const { schedule } = change;
  return firstRow(
    client,
    chatDb
      .updateTable('reminders')
      .set({
        text: change.text,
        kind: schedule.kind,
        remind_at: schedule.remindAt,
        recurrence: schedule.recurrence === null ? null : JSON.stringify(schedule.recurrence),
        next_fire_at: schedule.nextFireAt,
        updated_at: change.at,
      })
      .where('id', '=', id)
      .returning(reminderColumns)
      .$narrowType<ReminderStates>(),
  );
}

export async function cancelReminder(client: SqlClient, id: string, at: Date): Promise<ReminderRow | undefined> {
  return firstRow(
    client,
    chatDb
      .updateTable('reminders')
      .set({ status: 'CANCELLED', next_fire_at: null, updated_at: at })
      .where('id', '=', id)
      .returning(reminderColumns)
      .$narrowType<ReminderStates>(),
  );
}

const schedule: ReminderSchedule = {
  kind: 'RECURRING',
  remindAt: null,
  recurrence: { frequency: 'DAILY', time: '09:00', timeZone: 'UTC' },
  nextFireAt: example.at,
};

export const examples: QueryExamples = {
  insertReminder: (db) =>
    insertReminder(db, {
      id: example.id,
      ownerId: example.otherId,
      roomId: example.id,
      botId: example.otherId,
      text: example.text,
      schedule,
      at: example.at,
    }),
  activeReminders: (db) => activeReminders(db, example.id, { at: example.at.toISOString(), id: example.otherId }, 51),
  ownReminder: async (db) => {
    await ownReminder(db, example.id, example.otherId);
    await ownReminder(db, example.id, example.otherId, true);
  },
  updateReminder: (db) => updateReminder(db, example.id, { text: example.text, schedule, at: example.at }),
  cancelReminder: (db) => cancelReminder(db, example.id, example.at),
};
