// The statements of sending due scheduled messages: claim a batch, lock its rooms, send its top-level messages in
// one statement and its thread replies one by one, and settle every row with its event.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { firstRow, rows } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatTopic, outboxInsertFrom } from '../events/emit.js';
import { bumpStatement, replyStatement } from '../threads/reply-queries.js';
import { chatDb } from '../base/tables.js';
import type { ScheduledFailure } from './views.js';

/** The due PENDING rows of a batch, locked; rows another worker holds are skipped. */
const claim = (now: Date, batch: number) =>
  chatDb
    .selectFrom('scheduled_messages as s')
    .innerJoin('accounts as a', 'a.id', 's.sender_id')
    .innerJoin('rooms as r', 'r.id', 's.room_id')
    .select(['s.id', 's.room_id', 's.sender_id', 's.text', 's.thread_root_id', 'a.status as sender_status'])
    .select((eb) => eb('r.deleted_at', 'is not', null).as('room_deleted'))
    .where('s.status', '=', sql.lit('PENDING'))
    .where('s.send_at', '<=', now)
    .orderBy('s.send_at')
    .orderBy('s.id')
    .limit(batch)
    .forUpdate(['s'])
    .skipLocked();

export type DueRow = Awaited<ReturnType<ReturnType<typeof claim>['executeTakeFirstOrThrow']>>;

export async function claimDueScheduled(client: SqlClient, now: Date, batch: number): Promise<DueRow[]> {
  return rows(client, claim(now, batch));
}

/**
 * Room rows are locked up front in id order: two batches (and a batch and a send, which locks one room) then never
 * wait on each other in a cycle, however their rooms overlap.
 */
export async function lockRooms(client: SqlClient, roomIds: string[]): Promise<void> {
  await rows(
    client,
    chatDb
      .selectFrom('rooms')
      .select('id')
      .where('id', '=', sql<string>`any(${roomIds}::uuid[])`)
      .orderBy('id')
      .forNoKeyUpdate(),
  );
}

/** The top-level messages of a batch, in send order: scheduled ids, new message ids, rooms, senders, texts. */
export interface TopBatch {
  sids: string[];
  mids: string[];
  roomIds: string[];
  senderIds: string[];
  texts: string[];
}

/** The batch as rows d(sid, mid, room_id, sender_id, text, ord), ord being the send order. */
const batchRows = (b: TopBatch) =>
  sql<{ sid: string; mid: string; room_id: string; sender_id: string; text: string; ord: number }>`unnest(${b.sids}::uuid[],
    ${b.mids}::uuid[], ${b.roomIds}::uuid[], ${b.senderIds}::uuid[], ${b.texts}::text[]) with ordinality`.as<'d'>(
    sql`d(sid, mid, room_id, sender_id, text, ord)`,
  );

/** The payload of a message.created event of the inserted row (as a send writes it). */
const messageCreatedPayload = sql<unknown>`jsonb_build_object('roomId', room_id, 'messageId', id, 'senderId', sender_id,
  'seq', seq, 'threadRootId', thread_root_id, 'audience', jsonb_build_object('kind', 'room', 'roomId', room_id))`;

/**
 * The top-level messages of a batch in one statement, writing for each what a send writes (src/chat/messages/service.ts
 * sendSql: the room's next sequence number and activity, the message row, its message.created event), only for
 * senders who are still members. Returns the scheduled ids that were sent.
 */
export async function sendTopBatch(client: SqlClient, b: TopBatch, now: Date): Promise<string[]> {
  const sent = await rows(
    client,
    chatDb
      .with('d', (db) => db.selectFrom(batchRows(b)).selectAll())
      .with('ok', (db) =>
        db
          .selectFrom('d')
          .selectAll('d')
          .select(sql<number>`row_number() over (partition by d.room_id order by d.ord)`.as('rn'))
          .where((eb) =>
            eb.exists(
              eb
                .selectFrom('room_members as m')
                .select(sql<number>`1`.as('one'))
                .whereRef('m.room_id', '=', 'd.room_id')
                .whereRef('m.account_id', '=', 'd.sender_id'),
            ),
          ),
      )
      .with('counts', (db) =>
        db
          .selectFrom('ok')
          .select(['room_id', sql<number>`count(*)`.as('n')])
          .groupBy('room_id'),
      )
      .with('bump', (db) =>
        db
          .updateTable('rooms as r')
          .from('counts as c')
          .set({ last_seq: sql<number>`r.last_seq + c.n`, last_activity_at: now })
          .whereRef('r.id', '=', 'c.room_id')
          .returning(['r.id', 'r.last_seq', 'c.n']),
      )
      .with('msg', (db) =>
        db
          .insertInto('messages')
          .columns(['id', 'room_id', 'seq', 'sender_id', 'type', 'text', 'created_at'])
          .expression(
            db
              .selectFrom('ok')
              .innerJoin('bump as b', 'b.id', 'ok.room_id')
              .select([
                'ok.mid',
                'ok.room_id',
                sql<number>`b.last_seq - b.n + ok.rn`.as('seq'),
                'ok.sender_id',
                sql.lit('TEXT').as('type'),
                'ok.text',
                sql<Date>`${now}::timestamptz`.as('created_at'),
              ]),
          )
          .returning(['id', 'room_id', 'seq', 'sender_id', 'thread_root_id']),
      )
      .with('event', (db) =>
        outboxInsertFrom(
          db,
          db
            .selectFrom('msg')
            .select([chatTopic('message.created').as('topic'), messageCreatedPayload.as('payload')])
            .orderBy('room_id')
            .orderBy('seq'),
        ),
      )
      .selectFrom('ok')
      .innerJoin('msg', 'msg.id', 'ok.mid')
      .select('ok.sid'),
  );
  return sent.map((r) => r.sid);
}

/** What firing did with one scheduled message. */
export interface Outcome {
  id: string;
  status: 'SENT' | 'FAILED';
  messageId: string | null;
  reason: ScheduledFailure | null;
}

/** Marks the batch's rows with their outcomes and writes one event per row, in one statement. */
export async function settle(client: SqlClient, all: Outcome[], now: Date): Promise<void> {
  await rows(
    client,
    chatDb
      .with('done', (db) =>
        db
          .updateTable('scheduled_messages as s')
          .from(
            sql<{
              id: string;
              status: string;
              message_id: string | null;
              reason: string | null;
            }>`unnest(${all.map((o) => o.id)}::uuid[], ${all.map((o) => o.status)}::text[], ${all.map((o) => o.messageId)}::uuid[], ${all.map((o) => o.reason)}::text[])`.as<'x'>(
              sql`x(id, status, message_id, reason)`,
            ),
          )
          .set((eb) => ({
            status: eb.ref('x.status'),
            message_id: eb.ref('x.message_id'),
            failure_reason: eb.ref('x.reason'),
            fired_at: now,
            updated_at: now,
          }))
          .whereRef('s.id', '=', 'x.id')
          .returning(['s.id', 's.room_id', 's.sender_id', 's.send_at', 's.status', 's.message_id', 's.failure_reason', 's.fired_at']),
      )
      .with('event', (db) =>
        outboxInsertFrom(
          db,
          db.selectFrom('done').select([
            sql<string>`case when status = 'SENT' then ${chatTopic('scheduled_message.sent')} else ${chatTopic('scheduled_message.failed')} end`.as(
              'topic',
            ),
            sql<unknown>`jsonb_build_object('scheduledMessageId', id, 'roomId', room_id, 'senderId', sender_id, 'sendAt', send_at,
            'status', status, 'messageId', message_id, 'failureReason', failure_reason, 'firedAt', fired_at,
            'audience', jsonb_build_object('kind', 'accounts', 'accountIds', jsonb_build_array(sender_id)))`.as('payload'),
          ]),
        ),
      )
      .selectFrom('done')
      .select('id'),
  );
}

/** The room's next sequence number for a reply of the sender, as a reply send takes it; undefined for a non-member. */
export async function bumpForReply(client: SqlClient, reply: { room: string; sender: string; time: Date }): Promise<number | undefined> {
  const bump = await firstRow(client, bumpStatement.bind({ ...reply, clientMessageId: null }));
  return bump?.last_seq;
}

/** The reply, as a reply send inserts it (src/chat/threads/reply.ts); false when its root is recalled. */
export async function insertReply(
  client: SqlClient,
  reply: { id: string; room: string; seq: number; sender: string; text: string; time: Date; rootId: string },
): Promise<boolean> {
  const sent = await firstRow(
    client,
    replyStatement.bind({
      id: reply.id,
      room: reply.room,
      seq: reply.seq,
      sender: reply.sender,
      text: reply.text,
      clientMessageId: null,
      time: reply.time,
      named: reply.rootId,
    }),
  );
  return Boolean(sent?.id);
}

export const examples: QueryExamples = {
  claimDueScheduled: (db) => claimDueScheduled(db, example.at, 100),
  lockRooms: (db) => lockRooms(db, [example.id, example.otherId]),
  sendTopBatch: (db) =>
    sendTopBatch(
      db,
      { sids: [example.id], mids: [example.otherId], roomIds: [example.id], senderIds: [example.otherId], texts: [example.text] },
      example.at,
    ),
  settle: (db) =>
    settle(
      db,
      [
        { id: example.id, status: 'SENT', messageId: example.otherId, reason: null },
        { id: example.otherId, status: 'FAILED', messageId: null, reason: 'SENDER_NOT_MEMBER' },
      ],
      example.at,
    ),
  bumpForReply: (db) => bumpForReply(db, { room: example.id, sender: example.otherId, time: example.at }),
  insertReply: (db) =>
    insertReply(db, {
      id: example.id,
      room: example.otherId,
      seq: 7,
      sender: example.id,
      text: example.text,
      time: example.at,
      rootId: example.otherId,
    }),
};
