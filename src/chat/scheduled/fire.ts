// Sends the scheduled messages that are due. Exactly once: a batch claims PENDING rows with FOR UPDATE SKIP LOCKED
// and, in the same transaction, inserts their messages and marks each row SENT (or FAILED with the reason). Another
// worker skips the locked rows, and after the commit finds them no longer PENDING; a worker that dies mid-batch
// leaves nothing behind (its transaction rolls back) and the rows stay due.
import { recordMentions } from '../mentions/record.js';
import type { Clock } from '../../platform/clock.js';
import { inTransaction, savepoint, type SqlClient, type SqlPool } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import type { Queues } from '../../platform/queues.js';
import type { ScheduledFailure } from './views.js';
import {
  bumpForReply,
  claimDueScheduled,
  insertReply,
  lockRooms,
  sendTopBatch,
  settle,
  type DueRow,
  type Outcome,
} from './fire-queries.js';

export interface FireDeps {
  sql: SqlPool;
  clock: Clock;
  queues: Queues;
}

/**
 * Fires up to `batch` due messages in one transaction; returns how many it settled (fewer than `batch`: nothing
 * more was due). Messages keep their sendAt order within each room.
 */
export async function fireDueScheduled(deps: FireDeps, batch = 100): Promise<number> {
  const settled = await inTransaction(deps.sql, async (client) => {
    const now = deps.clock.now();
    const rows = await claimDueScheduled(client, now, batch);
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
    await lockRooms(client, [...new Set(postable.map((r) => r.room_id))]);
    const top = postable.filter((r) => r.thread_root_id === null);
    if (top.length > 0) {
      const ids = top.map(() => newId());
      const sent = await sendTopBatch(
        client,
        {
          sids: top.map((r) => r.id),
          mids: ids,
          roomIds: top.map((r) => r.room_id),
          senderIds: top.map((r) => r.sender_id),
          texts: top.map((r) => r.text),
        },
        now,
      );
      const ok = new Set(sent);
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
    await settle(client, [...outcomes.values()], now);
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
  const seq = await bumpForReply(client, { room: row.room_id, sender: row.sender_id, time: now });
  if (seq !== undefined) {
    const sent = await insertReply(client, {
      id: messageId,
      room: row.room_id,
      seq,
      sender: row.sender_id,
      text: row.text,
      time: now,
      rootId: row.thread_root_id!,
    });
    if (sent) {
      await reply.release();
      return { id: row.id, status: 'SENT', messageId, reason: null };
    }
  }
  await reply.rollback();
  return { id: row.id, status: 'FAILED', messageId: null, reason: seq === undefined ? 'SENDER_NOT_MEMBER' : 'THREAD_ROOT_RECALLED' };
}
