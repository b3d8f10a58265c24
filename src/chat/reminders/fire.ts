// Posts the reminder occurrences that are due, as the reminder bot in the owner's reminder room. Exactly once per
// occurrence: a batch claims ACTIVE reminders with FOR UPDATE SKIP LOCKED and, in the same transaction, records the
// occurrence under its key (reminder, instant; a second insert of the key is a no-op), posts the message and moves
// the reminder to its next occurrence (or DONE). Missed occurrences (workers down for longer than a period) post
// once, under the first missed instant, and the reminder continues from the next occurrence after now.
import { sql } from 'kysely';
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { affected, hotRows, rows as allRows } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import { plainSendStatement } from '../messages/send-sql.js';
import type { FireDeps } from '../scheduled/fire.js';
import { armTimer } from '../base/timers/arm.js';
import { nextOccurrence, type Recurrence } from './recurrence.js';
import type { ReminderKind } from './views.js';
import { chatTopic, outboxInsertFrom } from '../events/emit.js';
import { chatDb } from '../base/tables.js';

/** The due ACTIVE reminders of a batch, locked; reminders another worker holds are skipped. */
const claim = (now: Date, batch: number) =>
  chatDb
    .selectFrom('reminders as r')
    .innerJoin('accounts as a', 'a.id', 'r.owner_id')
    .select([
      'r.id',
      'r.owner_id',
      'r.room_id',
      'r.bot_id',
      'r.text',
      'r.kind',
      'r.recurrence',
      'r.next_fire_at',
      'a.status as owner_status',
    ])
    .where('r.status', '=', sql.lit('ACTIVE'))
    .where('r.next_fire_at', '<=', now)
    .orderBy('r.next_fire_at')
    .orderBy('r.id')
    .limit(batch)
    .forUpdate(['r'])
    .skipLocked()
    // An ACTIVE reminder has its next instant (the table's check).
    .$narrowType<{ kind: ReminderKind; recurrence: Recurrence | null; next_fire_at: Date }>();

type DueReminder = Awaited<ReturnType<ReturnType<typeof claim>['executeTakeFirstOrThrow']>>;

/** What a fired occurrence did, for its reminder.fired event. */
interface Fired {
  next: Date | null;
  now: Date;
  occurrence: Date;
  messageId: string | null;
  skipped: Skipped | null;
}

/** Moves the reminder to its next occurrence (or DONE) and writes its reminder.fired event, in one statement. */
const advance = (id: string, f: Fired) =>
  chatDb
    .with('moved', (db) =>
      db
        .updateTable('reminders')
        .set((eb) => ({
          status: f.next === null ? 'DONE' : 'ACTIVE',
          next_fire_at: f.next,
          last_fired_at: f.now,
          fire_count: eb('fire_count', '+', 1),
          updated_at: f.now,
        }))
        .where('id', '=', id)
        .returning(['id', 'owner_id', 'room_id', 'kind', 'status', 'next_fire_at']),
    )
    .with('event', (db) =>
      outboxInsertFrom(
        db,
        db.selectFrom('moved').select([
          chatTopic('reminder.fired').as('topic'),
          sql<unknown>`jsonb_build_object('reminderId', id, 'ownerId', owner_id, 'roomId', room_id, 'kind', kind,
            'occurrenceAt', ${f.occurrence}::timestamptz, 'messageId', ${f.messageId}::uuid, 'skippedReason', ${f.skipped}::text,
            'status', status, 'nextFireAt', next_fire_at,
            'audience', jsonb_build_object('kind', 'accounts', 'accountIds', jsonb_build_array(owner_id)))`.as('payload'),
        ]),
      ),
    )
    .selectFrom('moved')
    .select('id');

/** Why an occurrence posted nothing. */
type Skipped = 'OWNER_INACTIVE' | 'ROOM_UNAVAILABLE';

/**
 * Fires up to `batch` due reminders in one transaction; returns how many it handled (fewer than `batch`: nothing
 * more was due). Reminder rooms are written in room id order, so concurrent batches never deadlock.
 */
export async function fireDueReminders(deps: FireDeps, batch = 100): Promise<number> {
  const rearm: Array<{ id: string; at: Date }> = [];
  const handled = await inTransaction(deps.sql, async (client) => {
    const rows = await allRows(client, claim(deps.clock.now(), batch));
    const byRoom = [...rows].sort((a, b) => (a.room_id < b.room_id ? -1 : a.room_id > b.room_id ? 1 : 0));
    for (const reminder of byRoom) {
      const next = await fireOne(client, deps, reminder);
      if (next) rearm.push({ id: reminder.id, at: next });
    }
    return rows.length;
  });
  // The next occurrence of a recurring reminder gets its own timer.
  for (const r of rearm) await armTimer(deps.queues, deps.clock, r.at);
  return handled;
}

/** Posts one occurrence; returns the next one for a recurring reminder. */
async function fireOne(client: SqlClient, deps: FireDeps, reminder: DueReminder): Promise<Date | null> {
  const now = deps.clock.now();
  const occurrence = reminder.next_fire_at;
  const claimed = await affected(
    client,
    chatDb
      .insertInto('reminder_occurrences')
      .values({ reminder_id: reminder.id, occurrence_at: occurrence, fired_at: now })
      .onConflict((oc) => oc.doNothing()),
  );
  let messageId: string | null = null;
  let skipped: Skipped | null = null;
  if (claimed === 1) {
    if (reminder.owner_status !== 'ACTIVE') {
      // A deactivated or banned owner gets nothing; a recurring reminder resumes if the account comes back.
      skipped = 'OWNER_INACTIVE';
    } else {
      const id = newId();
      const [sent] = await hotRows(
        client,
        plainSendStatement.bind({ id, room: reminder.room_id, sender: reminder.bot_id, text: reminder.text, time: now }),
      );
      if (sent?.id) messageId = id;
      else skipped = 'ROOM_UNAVAILABLE';
    }
    await affected(
      client,
      chatDb
        .updateTable('reminder_occurrences')
        .set({ message_id: messageId, skipped_reason: skipped })
        .where('reminder_id', '=', reminder.id)
        .where('occurrence_at', '=', occurrence),
    );
  }
  const after = new Date(Math.max(now.getTime(), occurrence.getTime()));
  const next = reminder.kind === 'RECURRING' && reminder.recurrence ? nextOccurrence(reminder.recurrence, after) : null;
  await allRows(client, advance(reminder.id, { next, now, occurrence, messageId, skipped }));
  return next;
}
