// The send statement: membership check, sequence bump, message insert and its outbox event in one round trip.
import { mentionCtes, mentionWritesCtes } from '../mentions/sql.js';
import { messageColumns } from './views.js';
import { chatTopicSql, outboxInsertSql } from '../events/emit.js';

export interface SendInput {
  text: string;
  clientMessageId?: string;
  threadRootId?: string;
  attachments?: Array<{ uploadId: string }>;
}

/**
 * Sends in one statement: the room's sequence is bumped (the row lock orders concurrent sends, so commit
 * order equals sequence order and a forward scroll never skips a late commit), the message is inserted
 * and its event is written to the outbox, all only when the sender is a member. With a clientMessageId the
 * statement also skips a retry of a stored send; without one (the common case) it carries neither that check
 * nor the ON CONFLICT arbiter, whose speculative insertion costs the database on every send.
 */
function buildSendSql(withClientMessageId: boolean, withMentions = false): string {
  // With mentions, the candidates (the next parameter) resolve in the same statement: no extra round trip.
  const mentions = withMentions ? `$${withClientMessageId ? 7 : 6}` : null;
  return `
  with ${mentions ? `${mentionCtes('$2::uuid', '$3::uuid', mentions)}, ` : ''}bump as (
    update rooms set last_seq = last_seq + 1, last_activity_at = $5
     where id = $2 and exists (select 1 from room_members where room_id = $2 and account_id = $3)${
       withClientMessageId
         ? `
       -- a retried send leaves the room untouched (no sequence gap, no false activity)
       and not exists (select 1 from messages where room_id = $2 and sender_id = $3 and client_message_id = $6)`
         : ''
     }
    returning last_seq
  ), msg as (
    insert into messages (id, room_id, seq, sender_id, type, text, client_message_id, created_at${mentions ? ', entities' : ''})
    select $1, $2, bump.last_seq, $3, 'TEXT', $4, ${withClientMessageId ? '$6' : 'null'}, $5${mentions ? ', (select e from ents)' : ''} from bump${
      withClientMessageId
        ? `
    on conflict (room_id, sender_id, client_message_id) where client_message_id is not null do nothing`
        : ''
    }
    returning ${messageColumns}
  ), event as (
    ${outboxInsertSql}
    select ${chatTopicSql('message.created')}, jsonb_build_object('roomId', room_id, 'messageId', id, 'senderId', sender_id, 'seq', seq,
             'threadRootId', thread_root_id, 'audience', jsonb_build_object('kind', 'room', 'roomId', room_id)) from msg
  )${mentions ? `, ${mentionWritesCtes}` : ''}
  select b.last_seq as bumped, m.* from bump b left join msg m on true`;
}

/** $1 id, $2 room, $3 sender, $4 text, $5 time, $6 clientMessageId. */
export const sendSql = buildSendSql(true);
/** The same without a clientMessageId: $1 id, $2 room, $3 sender, $4 text, $5 time. */
export const plainSendSql = buildSendSql(false);
/** sendSql with the text's mention candidates (jsonb) as $7. */
export const mentionSendSql = buildSendSql(true, true);
/** plainSendSql with the text's mention candidates (jsonb) as $6. */
export const plainMentionSendSql = buildSendSql(false, true);
