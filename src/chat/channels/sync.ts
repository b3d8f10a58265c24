// Membership changes of a channel and what follows from them. A channel's rooms take its members: an account
// that joins the channel joins every room of it (read mark at the room's newest message), and an account that
// leaves it (dropped by the rule) leaves every room of it. Rule evaluation is set-based: one statement computes
// the matching accounts and applies the difference, whatever the number of accounts.
import { sql, type Selectable, type SqlBool } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, rows } from '../../platform/db/typed.js';
import { accountsAudience, channelAudience, emit, roomAudience } from '../events/emit.js';
import { chatDb, type ChatTables } from '../base/tables.js';
import type { Rule } from '../base/channel-access.js';
import { ruleExpression } from './rule.js';

/** The room_members rows a change wrote or removed. */
type RoomMembership = Pick<Selectable<ChatTables['room_members']>, 'room_id' | 'account_id'>;

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

/**
 * The statement that makes the MEMBER rows of a channel exactly the accounts its rule matches; OWNER and ADMIN
 * rows stay whatever the rule says. Rule members are USER accounts of the channel's module and customer whatever
 * their status (docs/adr/0047-channel-tenancy-and-modes.md).
 */
function evaluationQuery(channel: RuleChannel, at: Date) {
  return chatDb
    .with('matched', (db) =>
      db
        .selectFrom('accounts as a')
        .select('a.id')
        .where('a.module_code', '=', channel.moduleCode)
        .where('a.customer_account_id', '=', channel.customerAccountId)
        .where('a.account_type', '=', 'USER')
        .where(ruleExpression(channel.rule)),
    )
    .with('removed', (db) =>
      db
        .deleteFrom('channel_members')
        .where('channel_members.channel_id', '=', channel.id)
        .where('channel_members.role', '=', 'MEMBER')
        .where((eb) =>
          eb.not(eb.exists(eb.selectFrom('matched as x').select(sql.lit(1).as('one')).whereRef('x.id', '=', 'channel_members.account_id'))),
        )
        .returning('channel_members.account_id'),
    )
    .with('added', (db) =>
      db
        .insertInto('channel_members')
        .columns(['channel_id', 'account_id', 'role', 'joined_at'])
        .expression((eb) =>
          eb
            .selectFrom('matched as x')
            .select([
              sql<string>`${channel.id}::uuid`.as('channel_id'),
              'x.id',
              sql.lit('MEMBER').as('role'),
              sql<Date>`${at}::timestamptz`.as('joined_at'),
            ]),
        )
        .onConflict((oc) => oc.doNothing())
        .returning('account_id'),
    )
    .selectNoFrom((eb) => [
      sql<string[]>`array(${eb.selectFrom('added').select('account_id')})`.as('added'),
      sql<string[]>`array(${eb.selectFrom('removed').select('account_id')})`.as('removed'),
    ]);
}

/** The evaluation statement as text and values, for the benchmark's driver baseline. */
export function evaluationSql(channel: RuleChannel, at: Date): { text: string; values: unknown[] } {
  const compiled = evaluationQuery(channel, at).compile();
  return { text: compiled.sql, values: [...compiled.parameters] };
}

/** Re-evaluates a RULE channel whose row the caller holds locked, and applies the result. */
export async function evaluateChannel(client: SqlClient, channel: RuleChannel, by: string | null, at: Date): Promise<Delta> {
  const delta: Delta = (await firstRow(client, evaluationQuery(channel, at)))!;
  await applyDelta(client, channel.id, delta, by, 'rule', at);
  return delta;
}

/**
 * Re-evaluates every RULE channel of the account's module and customer for this one account (after its metadata
 * changed), in the caller's transaction. Channel rows are locked in id order, so a concurrent PUT rule of one
 * of them waits (or is waited for) and both end on the newest rule and metadata. Returns whether anything changed.
 */
export async function syncAccount(client: SqlClient, accountId: string, at: Date): Promise<boolean> {
  const account = await firstRow(
    client,
    chatDb.selectFrom('accounts').select(['module_code', 'customer_account_id', 'account_type']).where('id', '=', accountId),
  );
  if (!account) return false;
  const found = await rows(
    client,
    chatDb
      .selectFrom('channels')
      .select(['id', 'rule'])
      .where('module_code', '=', account.module_code)
      .where('customer_account_id', '=', account.customer_account_id)
      .where('membership_mode', '=', 'RULE')
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .forUpdate(),
  );
  // A RULE channel's rule is always set (ChannelService.create, setRule).
  const channels = found.map((c) => ({ id: c.id, rule: c.rule as Rule }));
  if (channels.length === 0) return false;
  const matching = new Set(account.account_type === 'USER' ? await matchingChannels(client, accountId, channels) : []);
  const memberships = await rows(
    client,
    chatDb
      .selectFrom('channel_members')
      .select(['channel_id', 'role'])
      .where('account_id', '=', accountId)
      .where('channel_id', '=', sql<string>`any(${channels.map((c) => c.id)}::uuid[])`),
  );
  const roles = new Map(memberships.map((m) => [m.channel_id, m.role]));
  let changed = false;
  for (const { id } of channels) {
    const role = roles.get(id);
    if (matching.has(id) && role === undefined) {
      await affected(
        client,
        chatDb.insertInto('channel_members').values({ channel_id: id, account_id: accountId, role: 'MEMBER', joined_at: at }),
      );
      await applyDelta(client, id, { added: [accountId], removed: [] }, null, 'metadata', at);
      changed = true;
    } else if (!matching.has(id) && role === 'MEMBER') {
      await affected(client, chatDb.deleteFrom('channel_members').where('channel_id', '=', id).where('account_id', '=', accountId));
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
    const hits = sql.join(channels.slice(i, i + 50).map((c) => sql`(${c.id}::uuid, ${ruleExpression(c.rule)})`));
    const verdicts = sql<{ cid: string; hit: SqlBool }>`(values ${hits})`.as<'v'>(sql`v(cid, hit)`);
    const matched = await rows(
      client,
      chatDb
        .selectFrom('accounts as a')
        .crossJoinLateral(verdicts)
        .select('v.cid')
        .where('a.id', '=', accountId)
        .where((eb) => eb.ref('v.hit')),
    );
    found.push(...matched.map((h) => h.cid));
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
  await affected(
    client,
    chatDb
      .updateTable('channels')
      .set((eb) => ({ member_count: eb('member_count', '+', added.length - removed.length) }))
      .where('id', '=', channelId),
  );
  if (added.length > 0)
    await emit(client, 'channel.members_added', { channelId, accountIds: added, cause, by }, channelAudience(channelId));
  if (removed.length > 0) {
    const payload = { channelId, accountIds: removed, cause, by };
    // The remaining members hear it through the channel; those who left, no longer members, are addressed directly.
    await emit(client, 'channel.members_removed', payload, channelAudience(channelId));
    await emit(client, 'channel.members_removed', payload, accountsAudience(removed));
  }
  const rooms = await rows(
    client,
    chatDb.selectFrom('rooms').select('id').where('channel_id', '=', channelId).where('deleted_at', 'is', null).orderBy('id').forUpdate(),
  );
  if (rooms.length === 0) return;
  const roomIds = sql<string>`any(${rooms.map((r) => r.id)}::uuid[])`;
  if (removed.length > 0) {
    const gone = await rows(
      client,
      chatDb
        .deleteFrom('room_members')
        .where('room_id', '=', roomIds)
        .where('account_id', '=', sql<string>`any(${removed}::uuid[])`)
        .returning(['room_id', 'account_id']),
    );
    for (const [roomId, accountIds] of byRoom(gone)) {
      const payload = { roomId, accountIds, channelId, reason: 'left_channel' as const };
      await emit(client, 'member.removed', payload, roomAudience(roomId));
      await emit(client, 'member.removed', payload, accountsAudience(accountIds));
    }
    await countMembers(client, gone, -1);
  }
  if (added.length > 0) {
    // New room members start with the room's history read, as any member added to an existing room.
    const joined = await rows(
      client,
      chatDb
        .insertInto('room_members')
        .columns(['room_id', 'account_id', 'role', 'joined_at', 'last_read_seq'])
        .expression(
          chatDb
            .selectFrom('rooms as r')
            .crossJoin(sql<{ id: string }>`unnest(${added}::uuid[])`.as<'x'>(sql`x(id)`))
            .select([
              'r.id as room_id',
              'x.id as account_id',
              sql.lit('MEMBER').as('role'),
              sql<Date>`${at}::timestamptz`.as('joined_at'),
              'r.last_seq',
            ])
            .where('r.id', '=', roomIds),
        )
        .onConflict((oc) => oc.doNothing())
        .returning(['room_id', 'account_id']),
    );
    for (const [roomId, accountIds] of byRoom(joined)) {
      await emit(client, 'member.added', { roomId, accountIds, role: 'MEMBER', addedBy: by, channelId }, roomAudience(roomId));
    }
    await countMembers(client, joined, 1);
  }
}

function byRoom(changes: RoomMembership[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const r of changes) {
    const list = map.get(r.room_id);
    if (list) list.push(r.account_id);
    else map.set(r.room_id, [r.account_id]);
  }
  return map;
}

async function countMembers(client: SqlClient, changes: RoomMembership[], sign: 1 | -1): Promise<void> {
  if (changes.length === 0) return;
  const counts = new Map<string, number>();
  for (const r of changes) counts.set(r.room_id, (counts.get(r.room_id) ?? 0) + 1);
  const deltas = chatDb
    .selectNoFrom([
      sql<string>`unnest(${[...counts.keys()]}::uuid[])`.as('id'),
      sql<number>`unnest(${[...counts.values()].map((n) => n * sign)}::int[])`.as('n'),
    ])
    .as('d');
  await affected(
    client,
    chatDb
      .updateTable('rooms as r')
      .from(deltas)
      .set((eb) => ({ member_count: eb('r.member_count', '+', eb.ref('d.n')) }))
      .whereRef('r.id', '=', 'd.id'),
  );
}
