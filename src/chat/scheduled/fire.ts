// Sends the scheduled messages that are due. Exactly once: a batch claims PENDING rows with FOR UPDATE SKIP LOCKED
// and, in the same transaction, inserts each message and marks its row SENT (or FAILED with the reason). Another
// worker skips the locked rows, and after the commit finds them no longer PENDING; a worker that dies mid-batch
// leaves nothing behind (its transaction rolls back) and the rows stay due.
import type { Clock } from '../../platform/clock.js';
import { inTransaction, type SqlClient, type SqlPool } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import type { Queues } from '../../platform/queues.js';
import { sendSql } from '../messages/service.js';
import { bumpSql, replySql } from '../threads/reply.js';
import type { ScheduledFailure } from './views.js';

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

/** Marks the batch's rows with their outcomes and writes one event per row, in one statement. */
const settleSql = `
  with done as (
    update scheduled_messages s
       set status = x.status, message_id = x.message_id, failure_reason = x.reason, fired_at = x.fired_at, updated_at = x.fired_at
      from unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::timestamptz[]) as x (id, status, message_id, reason, fired_at)
     where s.id = x.id
    returning s.id, s.room_id, s.sender_id, s.send_at, s.status, s.message_id, s.failure_reason, s.fired_at
  )
  insert into outbox (topic, payload)
  select case when status = 'SENT' then 'scheduled_message.sent' else 'scheduled_message.failed' end,
         jsonb_build_object('scheduledMessageId', id, 'roomId', room_id, 'senderId', sender_id, 'sendAt', send_at,
           'status', status, 'messageId', message_id, 'failureReason', failure_reason, 'firedAt', fired_at,
           'audience', jsonb_build_object('kind', 'accounts', 'accountIds', jsonb_build_array(sender_id)))
    from done`;

interface Outcome {
  id: string;
  status: 'SENT' | 'FAILED';
  messageId: string | null;
  reason: ScheduledFailure | null;
  at: Date;
}

/**
 * Fires up to `batch` due messages in one transaction; returns how many it settled (fewer than `batch`: nothing
 * more was due). Rows are sent room by room in room id order, so two batches lock room rows in the same order and
 * never deadlock; within a room, in sendAt order.
 */
export async function fireDueScheduled(deps: FireDeps, batch = 100): Promise<number> {
  const settled = await inTransaction(deps.sql, async (client) => {
    const { rows } = await client.query<DueRow>(claimSql, [deps.clock.now(), batch]);
    if (rows.length === 0) return 0;
    const byRoom = [...rows].sort((a, b) => (a.room_id < b.room_id ? -1 : a.room_id > b.room_id ? 1 : 0));
    const outcomes: Outcome[] = [];
    for (const row of byRoom) outcomes.push(await sendOne(client, deps.clock, row));
    await client.query(settleSql, [
      outcomes.map((o) => o.id),
      outcomes.map((o) => o.status),
      outcomes.map((o) => o.messageId),
      outcomes.map((o) => o.reason),
      outcomes.map((o) => o.at),
    ]);
    return rows.length;
  });
  if (settled > 0) deps.queues.requestOutboxDrain();
  return settled;
}

async function sendOne(client: SqlClient, clock: Clock, row: DueRow): Promise<Outcome> {
  const at = clock.now();
  const failed = (reason: ScheduledFailure): Outcome => ({ id: row.id, status: 'FAILED', messageId: null, reason, at });
  if (row.room_deleted) return failed('ROOM_DELETED');
  if (row.sender_status !== 'ACTIVE') return failed('SENDER_INACTIVE');
  const messageId = newId();
  if (row.thread_root_id === null) {
    // The send's own statement: it posts only while the sender is a member (a deleted room has none).
    const { rows } = await client.query<{ id: string | null }>(sendSql, [messageId, row.room_id, row.sender_id, row.text, at, null]);
    return rows[0]?.id ? { id: row.id, status: 'SENT', messageId, reason: null, at } : failed('SENDER_NOT_MEMBER');
  }
  // A reply takes the room's next sequence number before it finds its root; a recalled root takes no reply, and
  // rolling back to the savepoint gives the number back.
  await client.query('savepoint scheduled_reply');
  const bump = await client.query<{ last_seq: number }>(bumpSql, [row.room_id, row.sender_id, at, null]);
  const seq = bump.rows[0]?.last_seq;
  if (seq !== undefined) {
    const { rows } = await client.query<{ id: string | null }>(replySql, [messageId, row.room_id, seq, row.sender_id, row.text, null, at, row.thread_root_id]);
    if (rows[0]?.id) {
      await client.query('release savepoint scheduled_reply');
      return { id: row.id, status: 'SENT', messageId, reason: null, at };
    }
  }
  await client.query('rollback to savepoint scheduled_reply');
  return failed(seq === undefined ? 'SENDER_NOT_MEMBER' : 'THREAD_ROOT_RECALLED');
}
