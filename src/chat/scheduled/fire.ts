// Sends the scheduled messages that are due. Exactly once: a batch claims PENDING rows with FOR UPDATE SKIP LOCKED
// and, in the same transaction, inserts their messages and marks each row SENT (or FAILED with the reason). Another
// worker skips the locked rows, and after the commit finds them no longer PENDING; a worker that dies mid-batch
// leaves nothing behind (its transaction rolls back) and the rows stay due.
import { recordMentions } from '../mentions/record.js';
import type { Clock } from '../../platform/clock.js';
import { sql } from 'kysely';
import { inTransaction, savepoint, type SqlClient, type SqlPool } from '../../platform/db/sql.js';
import { firstRow, rows as allRows } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import type { Queues } from '../../platform/queues.js';
import { bumpStatement, replyStatement } from '../threads/reply.js';
import type { ScheduledFailure } from './views.js';
import { chatTopic, outboxInsertFrom } from '../events/emit.js';
import { chatDb } from '../base/tables.js';

export interface FireDeps {
  sql: SqlPool;
  clock: Clock;
  queues: Queues;
}

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

type DueRow = Awaited<ReturnType<ReturnType<typeof claim>['executeTakeFirstOrThrow']>>;

/**
 * Room rows are locked up front in id order: two batches (and a batch and a send, which locks one room) then never
 * wait on each other in a cycle, however their rooms overlap.
 */
const lockRooms = (roomIds: string[]) =>
  chatDb
    .selectFrom('rooms')
    .select('id')
    .where('id', '=', sql<string>`any(${roomIds}::uuid[])`)
    .orderBy('id')
    .forNoKeyUpdate();

/** The top-level messages of a batch, in send order: scheduled ids, new message ids, rooms, senders, texts. */
interface TopBatch {
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
const sendBatch = (b: TopBatch, now: Date) =>
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
    .select('ok.sid');

/** Marks the batch's rows with their outcomes and writes one event per row, in one statement. */
const settle = (all: Outcome[], now: Date) =>
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
    .select('id');

interface Outcome {
  id: string;
  status: 'SENT' | 'FAILED';
  messageId: string | null;
  reason: ScheduledFailure | null;
}

/**
 * Fires up to `batch` due messages in one transaction; returns how many it settled (fewer than `batch`: nothing
 * more was due). Messages keep their sendAt order within each room.
 */
export async function fireDueScheduled(deps: FireDeps, batch = 100): Promise<number> {
  const settled = await inTransaction(deps.sql, async (client) => {
    const now = deps.clock.now();
    const rows = await allRows(client, claim(now, batch));
    if (rows.length === 0) return 0;
    const outcomes = new Map<string, Outcome>();
    const failed = (row: DueRow, reason: ScheduledFailure) =>
      outcomes.set(row.id, { id: row.id, status: 'FAILED', messageId: null, reason });
    const postable: DueRow[] = [];
    for (const row of rows) {
      if (row.room_deleted) failed(row, 'ROOM_DELETED');
      else if (row.sender_status !== 'ACTIVE') failed(row, 'SENDER_INACTIVE');
      else postable.push(row);
    }
    await allRows(client, lockRooms([...new Set(postable.map((r) => r.room_id))]));
    const top = postable.filter((r) => r.thread_root_id === null);
    if (top.length > 0) {
      const ids = top.map(() => newId());
      const sent = await allRows(
        client,
        sendBatch(
          {
            sids: top.map((r) => r.id),
            mids: ids,
            roomIds: top.map((r) => r.room_id),
            senderIds: top.map((r) => r.sender_id),
            texts: top.map((r) => r.text),
          },
          now,
        ),
      );
      const ok = new Set(sent.map((r) => r.sid));
      top.forEach((row, i) => {
        if (ok.has(row.id)) outcomes.set(row.id, { id: row.id, status: 'SENT', messageId: ids[i]!, reason: null });
        else failed(row, 'SENDER_NOT_MEMBER');
      });
    }
    for (const row of postable.filter((r) => r.thread_root_id !== null)) outcomes.set(row.id, await sendReplyOf(client, row, now));
    // A scheduled message mentions as a send does (nothing runs for a text without '@').
    for (const row of postable) {
      const messageId = outcomes.get(row.id)?.messageId;
      if (messageId) await recordMentions(client, { id: messageId, room_id: row.room_id, sender_id: row.sender_id }, row.text);
    }
    await allRows(client, settle([...outcomes.values()], now));
    return rows.length;
  });
  return settled;
}

/** A scheduled thread reply, as a reply send makes it (src/chat/threads/reply.ts). */
async function sendReplyOf(client: SqlClient, row: DueRow, now: Date): Promise<Outcome> {
  const messageId = newId();
  // A reply takes the room's next sequence number before it finds its root; a recalled root takes no reply, and
  // rolling back to the savepoint gives the number back.
  const reply = await savepoint(client, 'scheduled_reply');
  const bump = await firstRow(client, bumpStatement.bind({ room: row.room_id, sender: row.sender_id, time: now, clientMessageId: null }));
  const seq = bump?.last_seq;
  if (seq !== undefined) {
    const sent = await firstRow(
      client,
      replyStatement.bind({
        id: messageId,
        room: row.room_id,
        seq,
        sender: row.sender_id,
        text: row.text,
        clientMessageId: null,
        time: now,
        named: row.thread_root_id!,
      }),
    );
    if (sent?.id) {
      await reply.release();
      return { id: row.id, status: 'SENT', messageId, reason: null };
    }
  }
  await reply.rollback();
  return { id: row.id, status: 'FAILED', messageId: null, reason: seq === undefined ? 'SENDER_NOT_MEMBER' : 'THREAD_ROOT_RECALLED' };
}
