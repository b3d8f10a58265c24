// Forwarding: copies of messages of a room the caller can read, sent into the target room by the caller. A copy
// carries the original's files: members of the target room may then download them.
import { inTransaction } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { roleIn, roomNotFound } from '../rooms/membership.js';
import { messageErrors } from './access.js';
import { messageColumns, messageView, type MessageRow, type MessageView } from './views.js';
import { chatTopicSql, outboxInsertSql } from '../events/emit.js';

export interface ForwardInput {
  fromRoomId: string;
  messageIds: string[];
}

/**
 * Reserves the target room's next `count` sequence numbers the way a send reserves one: the room row's lock
 * orders concurrent writers, so commit order equals sequence order. Only when the caller is a member.
 */
const bumpSql = `
  update rooms set last_seq = last_seq + $2, last_activity_at = $3
   where id = $1 and exists (select 1 from room_members where room_id = $1 and account_id = $4)
  returning last_seq`;

/**
 * The copies, numbered in the order given, with one message.created event each (in sequence order). $1 target
 * room, $2 first sequence number, $3 sender, $4 time, $5 source room, $6 new ids, $7 source ids (same order).
 */
const copySql = `
  with copies as (
    insert into messages (id, room_id, seq, sender_id, type, text, created_at, forwarded_from_room_id, forwarded_from_message_id, attachments)
    -- a forwarded poll is its question as text: votes belong to the poll's own room
    select n.id, $1, $2 + n.ord - 1, $3, case when s.type = 'POLL' then 'TEXT' else s.type end, s.text, $4, s.room_id, s.id, s.attachments
      from unnest($6::uuid[], $7::uuid[]) with ordinality as n (id, source_id, ord)
      join messages s on s.id = n.source_id and s.room_id = $5
    returning ${messageColumns}
  ), events as (
    ${outboxInsertSql}
    select ${chatTopicSql('message.created')}, jsonb_build_object(
             'audience', jsonb_build_object('kind', 'room', 'roomId', room_id),
             'roomId', room_id, 'messageId', id, 'senderId', sender_id, 'seq', seq,
             'forwardedFrom', jsonb_build_object('roomId', forwarded_from_room_id, 'messageId', forwarded_from_message_id))
      from copies order by seq
  )
  select * from copies order by seq`;

export class ForwardService {
  constructor(private readonly deps: ChatDeps) {}

  /** All or nothing: a source room the caller cannot read, or any id that cannot be forwarded, copies nothing. */
  async forward(caller: Caller, roomId: string, input: ForwardInput): Promise<MessageView[]> {
    // uuids arrive lower-cased (the request pipeline's one uuid rule), so the schema's uniqueItems sees repeats.
    const { fromRoomId, messageIds: ids } = input;
    const now = this.deps.clock.now();
    const rows = await inTransaction(this.deps.sql, async (client) => {
      await roleIn(client, roomId, caller.accountId);
      try {
        await roleIn(client, fromRoomId, caller.accountId);
      } catch {
        throw messageErrors.sourceRoomNotFound();
      }
      // The target room row is locked before the source messages, the order of every send and recall.
      const bump = await client.query<{ last_seq: number }>(bumpSql, [roomId, ids.length, now, caller.accountId]);
      if (!bump.rows[0]) throw roomNotFound();
      // key share: a recall of a source message waits until the copies are committed, or wins and is seen here.
      const sources = await client.query<{ id: string; recalled: boolean }>(
        'select id, recalled_at is not null as recalled from messages where room_id = $1 and id = any($2::uuid[]) for key share',
        [fromRoomId, ids],
      );
      const found = new Map(sources.rows.map((r) => [r.id, r.recalled]));
      const missing = ids.flatMap((id, i) => (found.has(id) ? [] : [i]));
      if (missing.length > 0) throw messageErrors.forwardNotFound(missing);
      const recalled = ids.flatMap((id, i) => (found.get(id) ? [i] : []));
      if (recalled.length > 0) throw messageErrors.forwardRecalled(recalled);
      const firstSeq = bump.rows[0].last_seq - ids.length + 1;
      const copies = await client.query<MessageRow>(copySql, [
        roomId,
        firstSeq,
        caller.accountId,
        now,
        fromRoomId,
        ids.map(() => newId()),
        ids,
      ]);
      if (copies.rows.length !== ids.length) throw new Error('forward copied fewer messages than it checked');
      return copies.rows;
    });
    this.deps.queues.requestOutboxDrain();
    return rows.map(messageView);
  }
}
