// Membership changes of a channel and what follows from them. A channel's rooms take its members: an account
// that joins the channel joins every room of it (read mark at the room's newest message), and an account that
// leaves it (dropped by the rule) leaves every room of it. Rule evaluation is set-based: one statement computes
// the matching accounts and applies the difference, whatever the number of accounts.
import type { SqlClient } from '../../platform/db/sql.js';
import { accountsAudience, channelAudience, emit, roomAudience } from '../events/emit.js';
import { ruleSql, type Rule } from './rule.js';

/** Why membership changed: an explicit addition, the rule (create or PUT rule), or an account's metadata. */
export type SyncCause = 'explicit' | 'rule' | 'metadata';

export interface Delta {
  added: string[];
  removed: string[];
}

export interface RuleChannel {
  id: string;
  moduleCode: string;
  customerAccountId: string;
  rule: Rule;
}

/** Rule members are USER accounts of the channel's module and customer whatever their status (docs/adr/0047-channel-tenancy-and-modes.md). */
const tenantUsers = (module: string, customer: string) =>
  `a.module_code = ${module} and a.customer_account_id = ${customer} and a.account_type = 'USER'`;

/**
 * The statement that makes the MEMBER rows of a channel exactly the accounts its rule matches; OWNER and ADMIN
 * rows stay whatever the rule says. Exported for the benchmark's driver baseline.
 */
export function evaluationSql(channel: RuleChannel, at: Date): { text: string; values: unknown[] } {
  const values: unknown[] = [channel.id, channel.moduleCode, channel.customerAccountId, at];
  const predicate = ruleSql(channel.rule, values);
  const text = `
    with matched as (
      select a.id from accounts a where ${tenantUsers('$2', '$3')} and ${predicate}
    ), removed as (
      delete from channel_members m
       where m.channel_id = $1 and m.role = 'MEMBER' and not exists (select 1 from matched x where x.id = m.account_id)
      returning m.account_id
    ), added as (
      insert into channel_members (channel_id, account_id, role, joined_at)
      select $1, x.id, 'MEMBER', $4 from matched x
      on conflict do nothing
      returning account_id
    )
    select array(select account_id from added) as added, array(select account_id from removed) as removed`;
  return { text, values };
}

/** Re-evaluates a RULE channel whose row the caller holds locked, and applies the result. */
export async function evaluateChannel(client: SqlClient, channel: RuleChannel, by: string | null, at: Date): Promise<Delta> {
  const { text, values } = evaluationSql(channel, at);
  const { rows } = await client.query<Delta>(text, values);
  const delta = rows[0]!;
  await applyDelta(client, channel.id, delta, by, 'rule', at);
  return delta;
}

/**
 * Re-evaluates every RULE channel of the account's module and customer for this one account (after its metadata
 * changed), in the caller's transaction. Channel rows are locked in id order, so a concurrent PUT rule of one
 * of them waits (or is waited for) and both end on the newest rule and metadata. Returns whether anything changed.
 */
export async function syncAccount(client: SqlClient, accountId: string, at: Date): Promise<boolean> {
  const { rows: accounts } = await client.query<{ module_code: string; customer_account_id: string; account_type: string }>(
    'select module_code, customer_account_id, account_type from accounts where id = $1',
    [accountId],
  );
  const account = accounts[0];
  if (!account) return false;
  const { rows: channels } = await client.query<{ id: string; rule: Rule }>(
    `select id, rule from channels
      where module_code = $1 and customer_account_id = $2 and membership_mode = 'RULE' and deleted_at is null
      order by id for update`,
    [account.module_code, account.customer_account_id],
  );
  if (channels.length === 0) return false;
  const matching = new Set(account.account_type === 'USER' ? await matchingChannels(client, accountId, channels) : []);
  const { rows: memberships } = await client.query<{ channel_id: string; role: string }>(
    'select channel_id, role from channel_members where account_id = $1 and channel_id = any($2::uuid[])',
    [accountId, channels.map((c) => c.id)],
  );
  const roles = new Map(memberships.map((m) => [m.channel_id, m.role]));
  let changed = false;
  for (const { id } of channels) {
    const role = roles.get(id);
    if (matching.has(id) && role === undefined) {
      await client.query(`insert into channel_members (channel_id, account_id, role, joined_at) values ($1, $2, 'MEMBER', $3)`, [
        id,
        accountId,
        at,
      ]);
      await applyDelta(client, id, { added: [accountId], removed: [] }, null, 'metadata', at);
      changed = true;
    } else if (!matching.has(id) && role === 'MEMBER') {
      await client.query('delete from channel_members where channel_id = $1 and account_id = $2', [id, accountId]);
      await applyDelta(client, id, { added: [], removed: [accountId] }, null, 'metadata', at);
      changed = true;
    }
  }
  return changed;
}

/** Which of the channels' rules the account matches: one statement per 50 rules. */
async function matchingChannels(client: SqlClient, accountId: string, channels: Array<{ id: string; rule: Rule }>): Promise<string[]> {
  const found: string[] = [];
  for (let i = 0; i < channels.length; i += 50) {
    const values: unknown[] = [accountId];
    const rows = channels.slice(i, i + 50).map((c) => {
      values.push(c.id);
      const id = `$${values.length}::uuid`;
      return `(${id}, ${ruleSql(c.rule, values)})`;
    });
    const { rows: hits } = await client.query<{ cid: string }>(
      `select v.cid from accounts a cross join lateral (values ${rows.join(', ')}) as v(cid, hit) where a.id = $1 and v.hit`,
      values,
    );
    found.push(...hits.map((h) => h.cid));
  }
  return found;
}

/**
 * Applies a membership change already written to channel_members: the member counter, the channel events and
 * the channel's rooms. The caller holds the channel row's lock; room rows are locked here in id order.
 */
export async function applyDelta(
  client: SqlClient,
  channelId: string,
  delta: Delta,
  by: string | null,
  cause: SyncCause,
  at: Date,
): Promise<void> {
  const { added, removed } = delta;
  if (added.length === 0 && removed.length === 0) return;
  await client.query('update channels set member_count = member_count + $2 where id = $1', [channelId, added.length - removed.length]);
  if (added.length > 0)
    await emit(client, 'channel.members_added', { channelId, accountIds: added, cause, by }, channelAudience(channelId));
  if (removed.length > 0) {
    const payload = { channelId, accountIds: removed, cause, by };
    // The remaining members hear it through the channel; those who left, no longer members, are addressed directly.
    await emit(client, 'channel.members_removed', payload, channelAudience(channelId));
    await emit(client, 'channel.members_removed', payload, accountsAudience(removed));
  }
  const { rows: rooms } = await client.query<{ id: string }>(
    'select id from rooms where channel_id = $1 and deleted_at is null order by id for update',
    [channelId],
  );
  if (rooms.length === 0) return;
  const roomIds = rooms.map((r) => r.id);
  if (removed.length > 0) {
    const { rows } = await client.query<{ room_id: string; account_id: string }>(
      'delete from room_members where room_id = any($1::uuid[]) and account_id = any($2::uuid[]) returning room_id, account_id',
      [roomIds, removed],
    );
    for (const [roomId, accountIds] of byRoom(rows)) {
      const payload = { roomId, accountIds, channelId, reason: 'left_channel' as const };
      await emit(client, 'member.removed', payload, roomAudience(roomId));
      await emit(client, 'member.removed', payload, accountsAudience(accountIds));
    }
    await countMembers(client, rows, -1);
  }
  if (added.length > 0) {
    // New room members start with the room's history read, as any member added to an existing room.
    const { rows } = await client.query<{ room_id: string; account_id: string }>(
      `insert into room_members (room_id, account_id, role, joined_at, last_read_seq)
       select r.id, x.id, 'MEMBER', $3, r.last_seq from rooms r cross join unnest($2::uuid[]) as x(id) where r.id = any($1::uuid[])
       on conflict do nothing returning room_id, account_id`,
      [roomIds, added, at],
    );
    for (const [roomId, accountIds] of byRoom(rows)) {
      await emit(client, 'member.added', { roomId, accountIds, role: 'MEMBER', addedBy: by, channelId }, roomAudience(roomId));
    }
    await countMembers(client, rows, 1);
  }
}

function byRoom(rows: Array<{ room_id: string; account_id: string }>): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const r of rows) {
    const list = map.get(r.room_id);
    if (list) list.push(r.account_id);
    else map.set(r.room_id, [r.account_id]);
  }
  return map;
}

async function countMembers(client: SqlClient, rows: Array<{ room_id: string }>, sign: 1 | -1): Promise<void> {
  if (rows.length === 0) return;
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(r.room_id, (counts.get(r.room_id) ?? 0) + 1);
  await client.query(
    `update rooms r set member_count = r.member_count + d.n from (select unnest($1::uuid[]) as id, unnest($2::int[]) as n) d where r.id = d.id`,
    [[...counts.keys()], [...counts.values()].map((n) => n * sign)],
  );
}
