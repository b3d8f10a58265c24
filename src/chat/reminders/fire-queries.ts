// The statements of firing due reminders: claim a batch, record each occurrence under its key, post it as the
// reminder bot, and move the reminder on with its reminder.fired event.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, hotRows, rows } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatTopic, outboxInsertFrom } from '../events/emit.js';
import { plainSendStatement } from '../messages/send-queries.js';
import { chatDb } from '../base/tables.js';
import type { Recurrence } from './recurrence.js';
import type { ReminderKind } from './views.js';

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

export type DueReminder = Awaited<ReturnType<ReturnType<typeof claim>['executeTakeFirstOrThrow']>>;

/** Why an occurrence posted nothing. */
export type Skipped = 'OWNER_INACTIVE' | 'ROOM_UNAVAILABLE';

/** What a fired occurrence did, for its reminder.fired event. */
export interface Fired {
  next: Date | null;
  now: Date;
  occurrence: Date;
  messageId: string | null;
  skipped: Skipped | null;
}

export async function claimDueReminders(client: SqlClient, now: Date, batch: number): Promise<DueReminder[]> {
  return rows(client, claim(now, batch));
}

/** Records the occurrence under its key (reminder, instant); false when it was recorded before. */
export async function claimOccurrence(client: SqlClient, reminderId: string, occurrence: Date, at: Date): Promise<boolean> {
  const claimed = await affected(
    client,
    chatDb
      .insertInto('reminder_occurrences')
      .values({ reminder_id: reminderId, occurrence_at: occurrence, fired_at: at })
      .onConflict((oc) => oc.doNothing()),
  );
  return claimed === 1;
}

/** Posts the text as the bot, as a send does; false when the room takes no message from it. */
export async function postAsBot(
  client: SqlClient,
  post: { id: string; room: string; sender: string; text: string; time: Date },
): Promise<boolean> {
  const [sent] = await hotRows(client, plainSendStatement.bind(post));
  return Boolean(sent?.id);
}

export async function recordOutcome(
  client: SqlClient,
  reminderId: string,
  occurrence: Date,
  outcome: { messageId: string | null; skipped: Skipped | null },
): Promise<void> {
  await affected(
    client,
    chatDb
      .updateTable('reminder_occurrences')
      .set({ message_id: outcome.messageId, skipped_reason: outcome.skipped })
      .where('reminder_id', '=', reminderId)
      .where('occurrence_at', '=', occurrence),
  );
}

/** Moves the reminder to its next occurrence (or DONE) and writes its reminder.fired event, in one statement. */
export async function advanceReminder(client: SqlClient, id: string, f: Fired): Promise<void> {
  await rows(
    client,
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
      .select('id'),
  );
}

export const examples: QueryExamples = {
  claimDueReminders: (db) => claimDueReminders(db, example.at, 100),
  claimOccurrence: (db) => claimOccurrence(db, example.id, example.at, example.at),
  postAsBot: (db) => postAsBot(db, { id: example.id, room: example.otherId, sender: example.id, text: example.text, time: example.at }),
  recordOutcome: (db) => recordOutcome(db, example.id, example.at, { messageId: example.otherId, skipped: null }),
  advanceReminder: (db) =>
    advanceReminder(db, example.id, {
      next: example.at,
      now: example.at,
      occurrence: example.at,
      messageId: example.otherId,
      skipped: null,
    }),
};
