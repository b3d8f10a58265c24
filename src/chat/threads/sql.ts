// SQL shared by the thread operations, the thread facts of a scroll page and the reply path. Unread counts are
// computed live from the rows (decision 5), so no counter can drift from what the rows say.
import { hiddenForMeColumn, messageColumns } from '../messages/views.js';

/**
 * Number of replies of `root` that `account` has not read: above the read mark `mark`, not sent by the account,
 * not recalled, not hidden by the account. One range scan of messages_thread (thread_root_id, seq) from the mark.
 */
export function unreadRepliesSql(root: string, mark: string, account: string): string {
  return `select count(*)::int from messages r
           where r.thread_root_id = ${root} and r.seq > ${mark}
             and r.sender_id <> ${account} and r.recalled_at is null
             and not exists (select 1 from message_hides h where h.account_id = ${account} and h.message_id = r.id)`;
}

/**
 * Thread roots with their facts from the caller's view ($1 = caller): hidden_for_me, following, unreadCount and the newest
 * reply the caller did not hide. `where` filters the roots (unqualified columns of messages), `limit` ends the inner
 * select (order and limit), `order` orders the result.
 */
export function threadFactsSql(where: string, limit: string, order: string): string {
  return `
    with t as (
      select ${messageColumns}, reply_count, last_reply_at from messages
       where reply_count > 0 and thread_root_id is null and ${where}
       ${limit}
    )
    select t.*,
           ${hiddenForMeColumn('$1', 't')},
           coalesce(f.state = 'FOLLOWING', false) as following,
           (${unreadRepliesSql('t.id', 'coalesce(f.last_read_seq, 0)', '$1')}) as unread_count,
           lr.id as lr_id, lr.sender_id as lr_sender_id, lr.text as lr_text, lr.recalled_at as lr_recalled_at,
           lr.created_at as lr_created_at
      from t
      left join thread_follows f on f.root_id = t.id and f.account_id = $1
      left join lateral (
        select r.id, r.sender_id, r.text, r.recalled_at, r.created_at from messages r
         where r.thread_root_id = t.id
           and not exists (select 1 from message_hides h where h.account_id = $1 and h.message_id = r.id)
         order by r.seq desc limit 1
      ) lr on true
     ${order}`;
}

/** Active threads of room $2 for caller $1, newest reply first, $3 rows, after the keyset ($4, $5) when paged. */
export function threadListSql(paged: boolean): string {
  const where = paged ? 'room_id = $2 and (last_reply_at, id) < ($4::timestamptz, $5::uuid)' : 'room_id = $2';
  return threadFactsSql(where, 'order by last_reply_at desc, id desc limit $3', 'order by t.last_reply_at desc, t.id desc');
}

/**
 * Replies of root $1 for caller $2, $3 rows from the newest back (or, forward, from the oldest on), beyond seq $4
 * when paged: one range scan of messages_thread (thread_root_id, seq). `guard` is a condition evaluated once
 * before the scan (the scan does not run when it is false).
 */
export function threadPageSql(forward: boolean, paged: boolean, guard = 'true'): string {
  const bound = paged ? (forward ? ' and seq > $4' : ' and seq < $4') : '';
  return `select ${messageColumns}, ${hiddenForMeColumn('$2')}
            from messages where ${guard} and thread_root_id = $1${bound} order by seq ${forward ? 'asc' : 'desc'} limit $3`;
}

/**
 * The thread page with its checks in the same statement (one round trip): whether caller $2 is a member of room
 * (the last parameter: $5 when paged, else $4) and whether $1 is a top-level message of that room; the page's rows
 * follow when both hold. Every row carries member and is_root; a page without replies is one row of nulls.
 */
export function checkedThreadPageSql(forward: boolean, paged: boolean): string {
  const room = paged ? '$5' : '$4';
  return `select k.member, k.is_root, p.* from (
      select exists (select 1 from room_members where room_id = ${room} and account_id = $2) as member,
             (select thread_root_id is null from messages where id = $1 and room_id = ${room}) as is_root
    ) k left join lateral (${threadPageSql(forward, paged, 'k.member and k.is_root')}) p on true`;
}

/** Threads account $1 follows, in rooms it is still a member of, with at least one unread reply (decision 5). */
export const unreadThreadCountSql = `
  select count(*)::int as n from thread_follows f
    join room_members rm on rm.room_id = f.room_id and rm.account_id = f.account_id
    join rooms ro on ro.id = f.room_id and ro.deleted_at is null
   where f.account_id = $1 and f.state = 'FOLLOWING'
     and exists (select 1 from messages r
                  where r.thread_root_id = f.root_id and r.seq > f.last_read_seq
                    and r.sender_id <> $1 and r.recalled_at is null
                    and not exists (select 1 from message_hides h where h.account_id = $1 and h.message_id = r.id))`;

/** The payload audience of a per-user event (decision 6). */
export function accountsAudienceSql(account: string): string {
  return `jsonb_build_object('kind', 'accounts', 'accountIds', jsonb_build_array(${account}))`;
}
