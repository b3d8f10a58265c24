// SQL shared by the thread operations, the thread facts of a scroll page and the reply path. Unread counts are
// computed live from the rows (decision 5), so no counter can drift from what the rows say.
import { messageColumns } from '../messages/views.js';

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
 * Thread roots with their facts from the caller's view ($1 = caller): hidden, following, unreadCount and the newest
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
           exists (select 1 from message_hides h where h.account_id = $1 and h.message_id = t.id) as hidden,
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

/** The payload audience of a per-user event (decision 6). */
export function accountsAudienceSql(account: string): string {
  return `jsonb_build_object('kind', 'accounts', 'accountIds', jsonb_build_array(${account}))`;
}
