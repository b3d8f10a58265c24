// The SQL that turns a message's mention candidates (parse.ts) into its entities and its mentions rows. One set of
// CTEs serves the send statement (where the message is inserted in the same statement) and the statements that
// record or recompute the mentions of a stored message (replies, sends with files, edits).
import { chatTopicSql, outboxInsertSql } from '../events/emit.js';

/**
 * CTEs `cand`, `hit`, `ents` and `notified`, given the parameter names of the room, the sender and the candidates
 * (jsonb). A name resolves among the accounts of the sender's customer (one index probe on accounts_username per
 * name) and only to a member of the room; an id likewise only to a member; @all and @here only when the sender is
 * an OWNER or ADMIN of the room. Everything else stays plain text: no entity, nobody notified.
 * `notified` holds every account to notify: the members named, and for @all / @here every member; never the sender.
 */
export function mentionCtes(room: string, sender: string, candidates: string): string {
  return `cand as (
    select c.o, c.l, c.k, c.n, c.a from jsonb_to_recordset(${candidates}::jsonb) as c(o int, l int, k text, n text, a uuid)
  ), hit as (
    -- lateral lookups: one probe of accounts_username and of room_members' key per candidate, whatever the size of
    -- the customer or the room (a join could hash every account of the customer or every member of the room);
    -- limit 1 (each is unique anyway) keeps the planner from pulling the subqueries up into such a join
    select c.o, c.l, c.k, a.id as account_id from cand c
     cross join lateral (
       select x.id from accounts x
        where x.customer_account_id = (select customer_account_id from accounts where id = ${sender}) and lower(x.username) = c.n
        limit 1
     ) a
     cross join lateral (select 1 from room_members where room_id = ${room} and account_id = a.id limit 1) rm
     where c.n is not null
    union all
    select c.o, c.l, c.k, c.a from cand c
     cross join lateral (select 1 from room_members where room_id = ${room} and account_id = c.a limit 1) rm
     where c.a is not null
    union all
    select c.o, c.l, c.k, null from cand c
     where c.k <> 'user'
       and exists (select 1 from room_members where room_id = ${room} and account_id = ${sender} and role in ('OWNER', 'ADMIN'))
  ), ents as (
    select jsonb_agg(jsonb_strip_nulls(jsonb_build_object('type', 'mention', 'offset', o, 'length', l, 'accountId', account_id,
             'broadcast', case when k = 'user' then null else k end)) order by o) as e from hit
  ), notified as (
    select account_id from hit where account_id is not null and account_id <> ${sender}
    union
    select m.account_id from room_members m
     where m.room_id = ${room} and m.account_id <> ${sender} and exists (select 1 from hit where k <> 'user')
  )`;
}

/**
 * The mentions rows and the mention.created event of the new message in CTE `msg` (id, room_id, seq, sender_id,
 * created_at, thread_root_id): one event to all notified accounts. A mention row already there (an edit that keeps
 * a mention) is kept as it is, read state included, and notifies nobody again.
 */
export const mentionWritesCtes = `men as (
    insert into mentions (account_id, message_id, room_id, seq, created_at)
    select n.account_id, m.id, m.room_id, m.seq, m.created_at from notified n cross join msg m
    on conflict (account_id, message_id) do nothing
    returning account_id
  ), men_event as (
    ${outboxInsertSql}
    select ${chatTopicSql('mention.created')}, jsonb_build_object('roomId', m.room_id, 'messageId', m.id, 'senderId', m.sender_id, 'seq', m.seq,
             'threadRootId', m.thread_root_id,
             'audience', jsonb_build_object('kind', 'accounts', 'accountIds', (select jsonb_agg(account_id) from men)))
      from msg m where exists (select 1 from men)
  )`;

/**
 * Records (or recomputes, on an edit) the mentions of a stored message: its entities, the rows of the accounts
 * it now mentions, and the withdrawal of those it no longer does (their rows deleted, mention.removed to them).
 * $1 message id, $2 room, $3 sender, $4 candidates (jsonb). Returns the message's entities (null when none).
 */
export const recordMentionsSql = `
  with ${mentionCtes('$2::uuid', '$3::uuid', '$4')}, msg as (
    update messages set entities = (select e from ents) where id = $1 and room_id = $2
    returning id, room_id, seq, sender_id, created_at, thread_root_id, entities
  ), gone as (
    delete from mentions where message_id = $1 and account_id not in (select account_id from notified)
    returning account_id, room_id
  ), gone_event as (
    ${outboxInsertSql}
    select ${chatTopicSql('mention.removed')}, jsonb_build_object('roomId', $2::uuid, 'messageId', $1::uuid,
             'audience', jsonb_build_object('kind', 'accounts', 'accountIds', (select jsonb_agg(account_id) from gone)))
     where exists (select 1 from gone)
  ), ${mentionWritesCtes}
  select (select entities from msg) as entities`;

/** Withdraws every mention of a message (a recall): $1 message id, $2 room. */
export const withdrawMentionsSql = `
  with gone as (delete from mentions where message_id = $1 returning account_id)
  ${outboxInsertSql}
  select ${chatTopicSql('mention.removed')}, jsonb_build_object('roomId', $2::uuid, 'messageId', $1::uuid,
           'audience', jsonb_build_object('kind', 'accounts', 'accountIds', (select jsonb_agg(account_id) from gone)))
   where exists (select 1 from gone)`;

/**
 * The caller's unread mentions of a room: rows not marked read whose message is past the caller's read mark of the
 * room (reading the room reads its mentions). `$1` is the caller. A range of the partial index mentions_unread.
 * Muted rooms count too: a mute silences the room, not the people who call on the caller by name.
 */
export function unreadMentionsOf(roomColumn: string, markColumn: string): string {
  return `(select count(*)::int from mentions mn
            where mn.account_id = $1 and mn.room_id = ${roomColumn} and mn.read_at is null and mn.seq > ${markColumn})`;
}
