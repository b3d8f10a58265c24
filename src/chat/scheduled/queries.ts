// The statements of the creator's scheduled messages: create, list, read, change and cancel.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';
import type { ScheduledRow, ScheduledStates, ScheduledStatus } from './views.js';

const scheduledColumns = [
  'id',
  'room_id',
  'sender_id',
  'text',
  'thread_root_id',
  'send_at',
  'status',
  'message_id',
  'failure_reason',
  'fired_at',
  'created_at',
  'updated_at',
] as const;

/** The sender's scheduled message by id; a cancelled one is gone for the API. */
const own = (senderId: string, id: string) =>
  chatDb
    .selectFrom('scheduled_messages')
    .select(scheduledColumns)
    .where('id', '=', id)
    .where('sender_id', '=', senderId)
    .where('status', '<>', 'CANCELLED')
    .$narrowType<ScheduledStates>();

export async function insertScheduled(
  client: SqlClient,
  message: { id: string; roomId: string; senderId: string; text: string; threadRootId: string | null; sendAt: Date; at: Date },
): Promise<ScheduledRow | undefined> {
  return firstRow(
    client,
    chatDb
      .insertInto('scheduled_messages')
      .values({
        id: message.id,
        room_id: message.roomId,
        sender_id: message.senderId,
        text: message.text,
        thread_root_id: message.threadRootId,
        send_at: message.sendAt,
        status: 'PENDING',
        created_at: message.at,
        updated_at: message.at,
      })
      .returning(scheduledColumns)
      .$narrowType<ScheduledStates>(),
  );
}

/** `count` of the sender's messages of the status (of the room when given), by send time, after the keyset when given. */
export async function scheduledOf(
  db: Runner,
  senderId: string,
  filter: { status: ScheduledStatus; roomId?: string },
  after: { at: unknown; id: string } | undefined,
  count: number,
): Promise<ScheduledRow[]> {
  return rows(
    db,
    chatDb
      .selectFrom('scheduled_messages')
      .select(scheduledColumns)
      .where('sender_id', '=', senderId)
      .where('status', '=', filter.status)
      .$if(filter.roomId !== undefined, (qb) => qb.where('room_id', '=', filter.roomId!))
      .$if(after !== undefined, (qb) => qb.where(sql<boolean>`(send_at, id) > (${after!.at}::timestamptz, ${after!.id}::uuid)`))
      .orderBy('send_at')
      .orderBy('id')
      .limit(count)
      .$narrowType<ScheduledStates>(),
  );
}

/** The sender's message that is not cancelled; locked for update when asked (a fire skips it until commit). */
export async function ownScheduled(db: Runner, senderId: string, id: string, lock = false): Promise<ScheduledRow | undefined> {
  return firstRow(db, lock ? own(senderId, id).forUpdate() : own(senderId, id));
}

export async function updateScheduled(
  client: SqlClient,
  id: string,
  change: { text: string; sendAt: Date; at: Date },
): Promise<ScheduledRow | undefined> {
  return firstRow(
    client,
    chatDb
      .updateTable('scheduled_messages')
      .set({ text: change.text, send_at: change.sendAt, updated_at: change.at })
      .where('id', '=', id)
      .returning(scheduledColumns)
      .$narrowType<ScheduledStates>(),
  );
}

export async function cancelScheduled(client: SqlClient, id: string, at: Date): Promise<ScheduledRow | undefined> {
  return firstRow(
    client,
    chatDb
      .updateTable('scheduled_messages')
      .set({ status: 'CANCELLED', updated_at: at })
      .where('id', '=', id)
      .returning(scheduledColumns)
      .$narrowType<ScheduledStates>(),
  );
}

/** The thread a message of the room belongs to (a reply names its root's thread), and whether its root is recalled. */
export async function threadRootOf(client: SqlClient, roomId: string, messageId: string) {
  return firstRow(
    client,
    chatDb
      .selectFrom('messages as m')
      .innerJoin('messages as r', (join) => join.on((eb) => eb('r.id', '=', eb.fn.coalesce('m.thread_root_id', 'm.id'))))
      .select((eb) => ['r.id as root_id', eb('r.recalled_at', 'is not', null).as('recalled')])
      .where('m.room_id', '=', roomId)
      .where('m.id', '=', messageId),
  );
}

export const examples: QueryExamples = {
  insertScheduled: (db) =>
    insertScheduled(db, {
      id: example.id,
      roomId: example.otherId,
      senderId: example.id,
      text: example.text,
      threadRootId: example.otherId,
      sendAt: example.at,
      at: example.at,
    }),
  scheduledOf: (db) =>
    scheduledOf(db, example.id, { status: 'PENDING', roomId: example.otherId }, { at: example.at.toISOString(), id: example.otherId }, 51),
  ownScheduled: async (db) => {
    await ownScheduled(db, example.id, example.otherId);
    await ownScheduled(db, example.id, example.otherId, true);
  },
  updateScheduled: (db) => updateScheduled(db, example.id, { text: example.text, sendAt: example.at, at: example.at }),
  cancelScheduled: (db) => cancelScheduled(db, example.id, example.at),
  threadRootOf: (db) => threadRootOf(db, example.id, example.otherId),
};
