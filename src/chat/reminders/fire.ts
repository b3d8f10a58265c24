// Posts the reminder occurrences that are due, as the reminder bot in the owner's reminder room. Exactly once per
// occurrence: a batch claims ACTIVE reminders with FOR UPDATE SKIP LOCKED and, in the same transaction, records the
// occurrence under its key (reminder, instant; a second insert of the key is a no-op), posts the message and moves
// the reminder to its next occurrence (or DONE). Missed occurrences (workers down for longer than a period) post
// once, under the first missed instant, and the reminder continues from the next occurrence after now.
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import { sendSql } from '../messages/send-sql.js';
import type { FireDeps } from '../scheduled/fire.js';
import { armTimer } from '../time/arm.js';
import { nextOccurrence, type Recurrence } from './recurrence.js';
import { chatTopicSql, outboxInsertSql } from '../events/emit.js';

interface DueReminder {
  id: string;
  owner_id: string;
  room_id: string;
  bot_id: string;
  text: string;
  kind: 'ONE_TIME' | 'RECURRING';
  recurrence: Recurrence | null;
  next_fire_at: Date;
  owner_status: string;
}

const claimSql = `
  select r.id, r.owner_id, r.room_id, r.bot_id, r.text, r.kind, r.recurrence, r.next_fire_at, a.status as owner_status
    from reminders r join accounts a on a.id = r.owner_id
   where r.status = 'ACTIVE' and r.next_fire_at <= $1
   order by r.next_fire_at, r.id
   limit $2
   for update of r skip locked`;

const advanceSql = `
  with moved as (
    update reminders
       set status = case when $2::timestamptz is null then 'DONE' else 'ACTIVE' end, next_fire_at = $2,
           last_fired_at = $3, fire_count = fire_count + 1, updated_at = $3
     where id = $1
    returning id, owner_id, room_id, kind, status, next_fire_at
  )
  ${outboxInsertSql}
  select ${chatTopicSql('reminder.fired')}, jsonb_build_object('reminderId', id, 'ownerId', owner_id, 'roomId', room_id, 'kind', kind,
           'occurrenceAt', $4::timestamptz, 'messageId', $5::uuid, 'skippedReason', $6::text, 'status', status,
           'nextFireAt', next_fire_at, 'audience', jsonb_build_object('kind', 'accounts', 'accountIds', jsonb_build_array(owner_id)))
    from moved`;

/** Why an occurrence posted nothing. */
type Skipped = 'OWNER_INACTIVE' | 'ROOM_UNAVAILABLE';

/**
 * Fires up to `batch` due reminders in one transaction; returns how many it handled (fewer than `batch`: nothing
 * more was due). Reminder rooms are written in room id order, so concurrent batches never deadlock.
 */
export async function fireDueReminders(deps: FireDeps, batch = 100): Promise<number> {
  const rearm: Array<{ id: string; at: Date }> = [];
  const handled = await inTransaction(deps.sql, async (client) => {
    const { rows } = await client.query<DueReminder>(claimSql, [deps.clock.now(), batch]);
    const byRoom = [...rows].sort((a, b) => (a.room_id < b.room_id ? -1 : a.room_id > b.room_id ? 1 : 0));
    for (const reminder of byRoom) {
      const next = await fireOne(client, deps, reminder);
      if (next) rearm.push({ id: reminder.id, at: next });
    }
    return rows.length;
  });
  if (handled > 0) deps.queues.requestOutboxDrain();
  // The next occurrence of a recurring reminder gets its own timer.
  for (const r of rearm) await armTimer(deps.queues, deps.clock, r.at);
  return handled;
}

/** Posts one occurrence; returns the next one for a recurring reminder. */
async function fireOne(client: SqlClient, deps: FireDeps, reminder: DueReminder): Promise<Date | null> {
  const now = deps.clock.now();
  const occurrence = reminder.next_fire_at;
  const claimed = await client.query(
    `insert into reminder_occurrences (reminder_id, occurrence_at, fired_at) values ($1, $2, $3) on conflict do nothing`,
    [reminder.id, occurrence, now],
  );
  let messageId: string | null = null;
  let skipped: Skipped | null = null;
  if (claimed.rowCount === 1) {
    if (reminder.owner_status !== 'ACTIVE') {
      // A deactivated or banned owner gets nothing; a recurring reminder resumes if the account comes back.
      skipped = 'OWNER_INACTIVE';
    } else {
      const id = newId();
      const { rows } = await client.query<{ id: string | null }>(sendSql, [
        id,
        reminder.room_id,
        reminder.bot_id,
        reminder.text,
        now,
        null,
      ]);
      if (rows[0]?.id) messageId = id;
      else skipped = 'ROOM_UNAVAILABLE';
    }
    await client.query(
      'update reminder_occurrences set message_id = $3, skipped_reason = $4 where reminder_id = $1 and occurrence_at = $2',
      [reminder.id, occurrence, messageId, skipped],
    );
  }
  const after = new Date(Math.max(now.getTime(), occurrence.getTime()));
  const next = reminder.kind === 'RECURRING' && reminder.recurrence ? nextOccurrence(reminder.recurrence, after) : null;
  await client.query(advanceSql, [reminder.id, next, now, occurrence, messageId, skipped]);
  return next;
}
