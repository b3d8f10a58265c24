// Posts the reminder occurrences that are due, as the reminder bot in the owner's reminder room. Exactly once per
// occurrence: a batch claims ACTIVE reminders with FOR UPDATE SKIP LOCKED and, in the same transaction, records the
// occurrence under its key (reminder, instant; a second insert of the key is a no-op), posts the message and moves
// the reminder to its next occurrence (or DONE). Missed occurrences (workers down for longer than a period) post
// once, under the first missed instant, and the reminder continues from the next occurrence after now.
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import type { FireDeps } from '../scheduled/fire.js';
import { armTimer } from '../base/timers/arm.js';
import { nextOccurrence } from './recurrence.js';
import {
  advanceReminder,
  claimDueReminders,
  claimOccurrence,
  postAsBot,
  recordOutcome,
  type DueReminder,
  type Skipped,
} from './fire-queries.js';

/**
 * Fires up to `batch` due reminders in one transaction; returns how many it handled (fewer than `batch`: nothing
 * more was due). Reminder rooms are written in room id order, so concurrent batches never deadlock.
 */
export async function fireDueReminders(deps: FireDeps, batch = 100): Promise<number> {
  const rearm: Array<{ id: string; at: Date }> = [];
  const handled = await inTransaction(deps.sql, async (client) => {
    const rows = await claimDueReminders(client, deps.clock.now(), batch);
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
  let messageId: string | null = null;
  let skipped: Skipped | null = null;
  if (await claimOccurrence(client, reminder.id, occurrence, now)) {
    if (reminder.owner_status !== 'ACTIVE') {
      // A deactivated or banned owner gets nothing; a recurring reminder resumes if the account comes back.
      skipped = 'OWNER_INACTIVE';
    } else {
      const id = newId();
      if (await postAsBot(client, { id, room: reminder.room_id, sender: reminder.bot_id, text: reminder.text, time: now })) messageId = id;
      else skipped = 'ROOM_UNAVAILABLE';
    }
    await recordOutcome(client, reminder.id, occurrence, { messageId, skipped });
  }
  const after = new Date(Math.max(now.getTime(), occurrence.getTime()));
  const next = reminder.kind === 'RECURRING' && reminder.recurrence ? nextOccurrence(reminder.recurrence, after) : null;
  await advanceReminder(client, reminder.id, { next, now, occurrence, messageId, skipped });
  return next;
}
