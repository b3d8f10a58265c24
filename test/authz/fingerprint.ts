// A cheap fingerprint of everything one world owns: a hash of its rows per table (rooms, members, messages and
// everything hanging off them, scheduled messages, reminders and uploads, its outbox events, accounts, modules and
// keys, channels, contact requests, broadcasts, personal organisation, polls and bots). A refused call must leave
// it unchanged. Scoped to the world's ids, so rows of worlds running in parallel do not disturb it.
import type pg from 'pg';

export interface WorldScope {
  accountIds: string[];
  roomIds: string[];
  /** Module codes the world owns (its tenant's, and the one createModule may create). */
  modules: string[];
  /** Customer account ids of the world's tenants (its own and its platform administrator's). */
  customers: string[];
  /** Outbox rows at or below this id predate the world. */
  outboxAfter: number;
}

const hashOf = (table: string, where: string, order: string) =>
  `'${table}', (select md5(coalesce(string_agg(t::text, '|' order by ${order}), '')) from ${table} t where ${where})`;

const SQL = `
  with r as (
    select id from rooms where id = any($2::uuid[]) or created_by = any($1::uuid[])
    union select room_id from room_members where account_id = any($1::uuid[])
  ), m as (
    select id from messages where room_id in (select id from r) or sender_id = any($1::uuid[])
  )
  select json_build_object(
    ${hashOf('rooms', 't.id in (select id from r)', 't.id')},
    ${hashOf('room_members', 't.room_id in (select id from r) or t.account_id = any($1::uuid[])', 't.room_id, t.account_id')},
    ${hashOf('messages', 't.id in (select id from m)', 't.id')},
    ${hashOf('message_hides', 't.account_id = any($1::uuid[]) or t.message_id in (select id from m)', 't.account_id, t.message_id')},
    ${hashOf('message_reactions', 't.account_id = any($1::uuid[]) or t.message_id in (select id from m)', 't.message_id, t.emoji, t.account_id')},
    ${hashOf('room_pins', 't.room_id in (select id from r)', 't.room_id, t.message_id')},
    ${hashOf('personal_pins', 't.account_id = any($1::uuid[]) or t.room_id in (select id from r)', 't.account_id, t.message_id')},
    ${hashOf('join_requests', 't.room_id in (select id from r) or t.account_id = any($1::uuid[])', 't.id')},
    ${hashOf('thread_follows', 't.account_id = any($1::uuid[]) or t.room_id in (select id from r)', 't.root_id, t.account_id')},
    ${hashOf('scheduled_messages', 't.sender_id = any($1::uuid[]) or t.room_id in (select id from r)', 't.id')},
    ${hashOf('reminders', 't.owner_id = any($1::uuid[])', 't.id')},
    ${hashOf('uploads', 't.owner_id = any($1::uuid[])', 't.id')},
    'outbox', (select md5(coalesce(string_agg(t.id || ' ' || t.topic || ' ' || t.payload::text, '|' order by t.id), ''))
                 from outbox t where t.id > $3 and t.payload::text like any($4::text[])),
    ${hashOf('accounts', 't.id = any($1::uuid[]) or t.module_code = any($5::text[])', 't.id')},
    ${hashOf('modules', 't.code = any($5::text[])', 't.code')},
    ${hashOf('customer_keys', 't.customer_account_id = any($6::text[])', 't.id')},
    ${hashOf('channels', 't.created_by = any($1::uuid[]) or t.id in (select channel_id from channel_members where account_id = any($1::uuid[]))', 't.id')},
    ${hashOf('channel_members', 't.account_id = any($1::uuid[]) or t.channel_id in (select id from channels where created_by = any($1::uuid[]))', 't.channel_id, t.account_id')},
    ${hashOf('contact_requests', 't.requester_id = any($1::uuid[]) or t.invitee_id = any($1::uuid[])', 't.id')},
    ${hashOf('broadcasts', 't.created_by = any($1::uuid[])', 't.id')},
    ${hashOf('broadcast_reads', 't.account_id = any($1::uuid[])', 't.account_id')},
    ${hashOf('drafts', 't.account_id = any($1::uuid[]) or t.room_id in (select id from r)', 't.account_id, t.room_id')},
    ${hashOf('labels', 't.owner_id = any($1::uuid[])', 't.id')},
    ${hashOf('room_labels', 't.account_id = any($1::uuid[]) or t.room_id in (select id from r)', 't.label_id, t.room_id')},
    ${hashOf('saved_messages', 't.account_id = any($1::uuid[]) or t.room_id in (select id from r)', 't.id')},
    ${hashOf('polls', 't.room_id in (select id from r)', 't.id')},
    ${hashOf('poll_ballots', 't.account_id = any($1::uuid[]) or t.poll_id in (select id from polls where room_id in (select id from r))', 't.poll_id, t.account_id')},
    ${hashOf('bots', 't.module_code = any($5::text[])', 't.id')},
    ${hashOf('bot_room_settings', 't.room_id in (select id from r)', 't.bot_id, t.room_id')},
    ${hashOf('bot_callback_queries', 't.room_id in (select id from r)', 't.id')}
  ) as f`;

export type Fingerprint = Record<string, string>;

export async function fingerprint(db: pg.Pool, scope: WorldScope): Promise<Fingerprint> {
  const mentions = [...scope.accountIds, ...scope.roomIds].map((id) => `%${id}%`);
  const { rows } = await db.query<{ f: Fingerprint }>(SQL, [
    scope.accountIds,
    scope.roomIds,
    scope.outboxAfter,
    mentions,
    scope.modules,
    scope.customers,
  ]);
  return rows[0]!.f;
}

/** Tables whose hash differs, empty when nothing changed. */
export function changedTables(before: Fingerprint, after: Fingerprint): string[] {
  return Object.keys(before).filter((table) => before[table] !== after[table]);
}
