// Thread replies, sent through POST /rooms/{roomId}/messages with threadRootId. A top-level send stays one
// statement (sendSql); a reply takes one transaction of two statements, because it must undo the room's
// sequence bump when its root turns out to be missing or recalled.
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { chatErrors } from '../errors.js';
import { firstSend } from '../messages/retried-send.js';
import { messageColumns, messageView, type MessageRow, type MessageView } from '../messages/views.js';
import { accountsAudienceSql } from './sql.js';
import { roomNotFound } from '../rooms/membership.js';
import { chatTopicSql, outboxInsertSql } from '../events/emit.js';

export interface ReplyInput {
  text: string;
  clientMessageId?: string;
  threadRootId: string;
}

/**
 * Takes the room row's lock first (as every send does, so replies and top-level messages share one commit order
 * and the root's last reply is the one with the highest seq), only for a member, and not for a retried send.
 */
export const bumpSql = `
  update rooms set last_seq = last_seq + 1, last_activity_at = $3
   where id = $1 and exists (select 1 from room_members where room_id = $1 and account_id = $2)
     and ($4::text is null or not exists (
           select 1 from messages where room_id = $1 and sender_id = $2 and client_message_id = $4))
  returning last_seq`;

/**
 * $1 id, $2 room, $3 seq, $4 sender, $5 text, $6 clientMessageId, $7 now, $8 the named message.
 * The named message resolves to its root (a reply to a reply joins the same root); the root's counters move only
 * while it is not recalled (re-checked on the locked row); the root author and the replier follow unless their
 * row says UNFOLLOWED; the replier's read mark moves up to the reply. Nothing but the counters is written when
 * the root is missing or recalled, and the caller rolls those back.
 */
export const replySql = `
  with named as (
    select coalesce(thread_root_id, id) as root_id from messages where id = $8 and room_id = $2
  ), root as (
    update messages r set reply_count = r.reply_count + 1, last_reply_at = $7, last_reply_id = $1
      from named where r.id = named.root_id and r.recalled_at is null
    returning r.id, r.sender_id
  ), msg as (
    insert into messages (id, room_id, seq, sender_id, type, text, client_message_id, created_at, thread_root_id)
    select $1, $2, $3, $4, 'TEXT', $5, $6, $7, root.id from root
    on conflict (room_id, sender_id, client_message_id) where client_message_id is not null do nothing
    returning ${messageColumns}
  ), prev as (
    select f.state from thread_follows f join root on f.root_id = root.id where f.account_id = $4
  ), author_follow as (
    insert into thread_follows (root_id, account_id, room_id, state, last_read_seq, updated_at)
    select root.id, root.sender_id, $2, 'FOLLOWING', 0, $7 from root join msg on true
     where root.sender_id <> $4
       and exists (select 1 from room_members where room_id = $2 and account_id = root.sender_id)
    on conflict (root_id, account_id) do update set state = 'FOLLOWING', updated_at = excluded.updated_at
     where thread_follows.state = 'NONE'
    returning root_id, account_id
  ), replier_follow as (
    insert into thread_follows (root_id, account_id, room_id, state, last_read_seq, updated_at)
    select root.id, $4, $2, 'FOLLOWING', $3, $7 from root join msg on true
    on conflict (root_id, account_id) do update
       set last_read_seq = greatest(thread_follows.last_read_seq, excluded.last_read_seq),
           state = case when thread_follows.state = 'NONE' then 'FOLLOWING' else thread_follows.state end,
           updated_at = excluded.updated_at
    returning root_id, account_id, state
  ), followed as (
    select root_id, account_id from author_follow
    union all
    select root_id, account_id from replier_follow
     where state = 'FOLLOWING' and coalesce((select state from prev), 'NONE') = 'NONE'
  ), event as (
    ${outboxInsertSql}
    select ${chatTopicSql('message.created')}, jsonb_build_object('roomId', room_id, 'messageId', id, 'senderId', sender_id, 'seq', seq,
             'threadRootId', thread_root_id, 'audience', jsonb_build_object('kind', 'room', 'roomId', room_id)) from msg
    union all
    select ${chatTopicSql('thread.followed')}, jsonb_build_object('rootId', f.root_id, 'roomId', msg.room_id, 'accountId', f.account_id,
             'automatic', true, 'audience', ${accountsAudienceSql('f.account_id')}) from followed f join msg on true
  )
  select (select root_id from named) as named_root, (select id from root) as root_id, m.*
    from (select 1) one left join msg m on true`;

type ReplyRow = MessageRow & { named_root: string | null; root_id: string | null };

/** Why a reply stored nothing; thrown inside the transaction so that it rolls back. */
class NoReply extends Error {
  constructor(readonly reason: 'not_member' | 'retry' | 'no_root' | 'recalled') {
    super(reason);
  }
}

/** `decorate` completes the stored reply inside its transaction (a send with attachments claims its uploads). */
export async function sendReply(
  deps: ChatDeps,
  caller: Caller,
  roomId: string,
  input: ReplyInput,
  decorate?: (client: SqlClient, row: MessageRow) => Promise<MessageRow>,
): Promise<MessageView> {
  const id = newId();
  const now = deps.clock.now();
  const cmid = input.clientMessageId ?? null;
  let row: MessageRow;
  try {
    row = await inTransaction(deps.sql, async (client) => {
      const bump = await client.query<{ last_seq: number }>(bumpSql, [roomId, caller.accountId, now, cmid]);
      const seq = bump.rows[0]?.last_seq;
      if (seq === undefined) throw new NoReply(cmid === null ? 'not_member' : 'retry');
      const { rows } = await client.query<ReplyRow>(replySql, [
        id,
        roomId,
        seq,
        caller.accountId,
        input.text,
        cmid,
        now,
        input.threadRootId,
      ]);
      const reply = rows[0]!;
      if (reply.id !== null) return decorate ? decorate(client, reply) : reply;
      if (reply.named_root === null) throw new NoReply('no_root');
      if (reply.root_id === null) throw new NoReply('recalled');
      throw new NoReply('retry'); // a concurrent retry won the insert
    });
  } catch (err) {
    if (!(err instanceof NoReply)) throw err;
    switch (err.reason) {
      case 'not_member':
        throw roomNotFound();
      case 'no_root':
        throw chatErrors.notFound('Message', 'message_not_found');
      case 'recalled':
        throw chatErrors.conflict('message_recalled', 'The thread root was recalled; it takes no more replies.');
      case 'retry':
        return firstSend(deps, caller, roomId, cmid!);
    }
  }
  deps.queues.requestOutboxDrain();
  return messageView(row);
}
