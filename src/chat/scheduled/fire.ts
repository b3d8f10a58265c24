// Sends the scheduled messages that are due. Exactly once: a batch claims PENDING rows with FOR UPDATE SKIP LOCKED
// and, in the same transaction, inserts their messages and marks each row SENT (or FAILED with the reason). Another
// worker skips the locked rows, and after the commit finds them no longer PENDING; a worker that dies mid-batch
// leaves nothing behind (its transaction rolls back) and the rows stay due.
import { recordMentions } from '../mentions/record.js';
import type { Clock } from '../../platform/clock.js';
import { inTransaction, type SqlClient, type SqlPool } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import type { Queues } from '../../platform/queues.js';
import { bumpSql, replySql } from '../threads/reply.js';
import type { ScheduledFailure } from './views.js';
import { chatTopicSql, outboxInsertSql } from '../events/emit.js';

export interface FireDeps {
  sql: SqlPool;
  clock: Clock;
  queues: Queues;
}

interface DueRow {
  id: string;
  room_id: string;
  sender_id: string;
  text: string;
  thread_root_id: string | null;
  sender_status: string;
  room_deleted: boolean;
}

const claimSql = `
  select s.id, s.room_id, s.sender_id, s.text, s.thread_root_id, a.status as sender_status, r.deleted_at is not null as room_deleted
    from scheduled_messages s join accounts a on a.id = s.sender_id join rooms r on r.id = s.room_id
   where s.status = 'PENDING' and s.send_at <= $1
   order by s.send_at, s.id
   limit $2
   for update of s skip locked`;

/**
 * Room rows are locked up front in id order: two batches (and a batch and a send, which locks one room) then never
 * wait on each other in a cycle, however their rooms overlap.
 */
const lockRoomsSql = 'select id from rooms where id = any($1::uuid[]) order by id for no key update';

/**
 * The top-level messages of a batch in one statement, writing for each what a send writes (src/chat/messages/service.ts
 * sendSql: the room's next sequence number and activity, the message row, its message.created event), only for
 * senders who are still members. $1 scheduled ids, $2 message ids, $3 rooms, $4 senders, $5 texts (in send order),
 * $6 now. Returns the scheduled ids that were sent.
 */
const sendBatchSql = `
  with d as (
    select * from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::text[]) with ordinality as d (sid, mid, room_id, sender_id, text, ord)
  ), ok as (
    select d.*, row_number() over (partition by d.room_id order by d.ord) as rn from d
     where exists (select 1 from room_members m where m.room_id = d.room_id and m.account_id = d.sender_id)
  ), counts as (
    select room_id, count(*) as n from ok group by room_id
  ), bump as (
    update rooms r set last_seq = r.last_seq + c.n, last_activity_at = $6 from counts c where r.id = c.room_id
    returning r.id, r.last_seq, c.n
  ), msg as (
    insert into messages (id, room_id, seq, sender_id, type, text, created_at)
    select ok.mid, ok.room_id, b.last_seq - b.n + ok.rn, ok.sender_id, 'TEXT', ok.text, $6 from ok join bump b on b.id = ok.room_id
    returning id, room_id, seq, sender_id, thread_root_id
  ), event as (
    ${outboxInsertSql}
    select ${chatTopicSql('message.created')}, jsonb_build_object('roomId', room_id, 'messageId', id, 'senderId', sender_id, 'seq', seq,
             'threadRootId', thread_root_id, 'audience', jsonb_build_object('kind', 'room', 'roomId', room_id))
      from msg order by room_id, seq
  )
  select ok.sid from ok join msg on msg.id = ok.mid`;

/** Marks the batch's rows with their outcomes and writes one event per row, in one statement. */
const settleSql = `
  with done as (
    update scheduled_messages s
       set status = x.status, message_id = x.message_id, failure_reason = x.reason, fired_at = $5, updated_at = $5
      from unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[]) as x (id, status, message_id, reason)
     where s.id = x.id
    returning s.id, s.room_id, s.sender_id, s.send_at, s.status, s.message_id, s.failure_reason, s.fired_at
  )
  ${outboxInsertSql}
  select case when status = 'SENT' then ${chatTopicSql('scheduled_message.sent')} else ${chatTopicSql('scheduled_message.failed')} end,
         jsonb_build_object('scheduledMessageId', id, 'roomId', room_id, 'senderId', sender_id, 'sendAt', send_at,
           'status', status, 'messageId', message_id, 'failureReason', failure_reason, 'firedAt', fired_at,
           'audience', jsonb_build_object('kind', 'accounts', 'accountIds', jsonb_build_array(sender_id)))
    from done`;

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
    const { rows } = await client.query<DueRow>(claimSql, [now, batch]);
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
    await client.query(lockRoomsSql, [[...new Set(postable.map((r) => r.room_id))]]);
    const top = postable.filter((r) => r.thread_root_id === null);
    if (top.length > 0) {
      const ids = top.map(() => newId());
      const sent = await client.query<{ sid: string }>(sendBatchSql, [
        top.map((r) => r.id),
        ids,
        top.map((r) => r.room_id),
        top.map((r) => r.sender_id),
        top.map((r) => r.text),
        now,
      ]);
      const ok = new Set(sent.rows.map((r) => r.sid));
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
    const all = [...outcomes.values()];
    await client.query(settleSql, [
      all.map((o) => o.id),
      all.map((o) => o.status),
      all.map((o) => o.messageId),
      all.map((o) => o.reason),
      now,
    ]);
    return rows.length;
  });
  if (settled > 0) deps.queues.requestOutboxDrain();
  return settled;
}

/** A scheduled thread reply, as a reply send makes it (src/chat/threads/reply.ts). */
async function sendReplyOf(client: SqlClient, row: DueRow, now: Date): Promise<Outcome> {
  const messageId = newId();
  // A reply takes the room's next sequence number before it finds its root; a recalled root takes no reply, and
  // rolling back to the savepoint gives the number back.
  await client.query('savepoint scheduled_reply');
  const bump = await client.query<{ last_seq: number }>(bumpSql, [row.room_id, row.sender_id, now, null]);
  const seq = bump.rows[0]?.last_seq;
  if (seq !== undefined) {
    const { rows } = await client.query<{ id: string | null }>(replySql, [
      messageId,
      row.room_id,
      seq,
      row.sender_id,
      row.text,
      null,
      now,
      row.thread_root_id,
    ]);
    if (rows[0]?.id) {
      await client.query('release savepoint scheduled_reply');
      return { id: row.id, status: 'SENT', messageId, reason: null };
    }
  }
  await client.query('rollback to savepoint scheduled_reply');
  return { id: row.id, status: 'FAILED', messageId: null, reason: seq === undefined ? 'SENDER_NOT_MEMBER' : 'THREAD_ROOT_RECALLED' };
}
