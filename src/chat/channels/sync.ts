// Membership changes of a channel and what follows from them. A channel's rooms take its members: an account
// that joins the channel joins every room of it (read mark at the room's newest message), and an account that
// leaves it (dropped by the rule) leaves every room of it. Rule evaluation is set-based: one statement computes
// the matching accounts and applies the difference, whatever the number of accounts.
import type { Selectable } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { accountsAudience, channelAudience, emit, roomAudience } from '../events/emit.js';
import type { ChatTables } from '../base/tables.js';
import type { Rule } from '../base/channel-access.js';
import {
  accountTenancy,
  addToRooms,
  channelsMatching,
  countChannelMembers,
  countRoomMembers,
  deleteChannelMember,
  evaluateRule,
  evaluationQuery,
  insertChannelMember,
  lockChannelRooms,
  lockRuleChannels,
  removeFromRooms,
  rolesIn,
  type RuleChannel,
} from './sync-queries.js';

/** The room_members rows a change wrote or removed. */
type RoomMembership = Pick<Selectable<ChatTables['room_members']>, 'room_id' | 'account_id'>;

/** Why membership changed: an explicit addition, the rule (create or PUT rule), or an account's metadata. */
export type SyncCause = 'explicit' | 'rule' | 'metadata';

export interface Delta {
  added: string[];
  removed: string[];
}

export type { RuleChannel } from './sync-queries.js';

/** The evaluation statement as text and values, for the benchmark's driver baseline. */
export function evaluationSql(channel: RuleChannel, at: Date): { text: string; values: unknown[] } {
  const compiled = evaluationQuery(channel, at).compile();
  return { text: compiled.sql, values: [...compiled.parameters] };
}

/** Re-evaluates a RULE channel whose row the caller holds locked, and applies the result. */
export async function evaluateChannel(client: SqlClient, channel: RuleChannel, by: string | null, at: Date): Promise<Delta> {
  const delta: Delta = await evaluateRule(client, channel, at);
  await applyDelta(client, channel.id, delta, by, 'rule', at);
  return delta;
}

/**
 * Re-evaluates every RULE channel of the account's module and customer for this one account (after its metadata
 * changed), in the caller's transaction. Channel rows are locked in id order, so a concurrent PUT rule of one
 * of them waits (or is waited for) and both end on the newest rule and metadata.
 */
export async function syncAccount(client: SqlClient, accountId: string, at: Date): Promise<void> {
  const account = await accountTenancy(client, accountId);
  if (!account) return;
  const found = await lockRuleChannels(client, account.module_code, account.customer_account_id);
  // A RULE channel's rule is always set (ChannelService.create, setRule).
  const channels = found.map((c) => ({ id: c.id, rule: c.rule as Rule }));
  if (channels.length === 0) return;
  const matching = new Set(account.account_type === 'USER' ? await matchingChannels(client, accountId, channels) : []);
  const memberships = await rolesIn(
    client,
    accountId,
    channels.map((c) => c.id),
  );
  const roles = new Map(memberships.map((m) => [m.channel_id, m.role]));
  for (const { id } of channels) {
    const role = roles.get(id);
    if (matching.has(id) && role === undefined) {
      await insertChannelMember(client, id, accountId, 'MEMBER', at);
      await applyDelta(client, id, { added: [accountId], removed: [] }, null, 'metadata', at);
    } else if (!matching.has(id) && role === 'MEMBER') {
      await deleteChannelMember(client, id, accountId);
      await applyDelta(client, id, { added: [], removed: [accountId] }, null, 'metadata', at);
    }
  }
}

/** Which of the channels' rules the account matches: one statement per 50 rules. */
async function matchingChannels(client: SqlClient, accountId: string, channels: Array<{ id: string; rule: Rule }>): Promise<string[]> {
  const found: string[] = [];
  for (let i = 0; i < channels.length; i += 50) found.push(...(await channelsMatching(client, accountId, channels.slice(i, i + 50))));
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
  await countChannelMembers(client, channelId, added.length - removed.length);
  if (added.length > 0)
    await emit(client, 'channel.members_added', { channelId, accountIds: added, cause, by }, channelAudience(channelId));
  if (removed.length > 0) {
    const payload = { channelId, accountIds: removed, cause, by };
    // The remaining members hear it through the channel; those who left, no longer members, are addressed directly.
    await emit(client, 'channel.members_removed', payload, channelAudience(channelId));
    await emit(client, 'channel.members_removed', payload, accountsAudience(removed));
  }
  const roomIds = await lockChannelRooms(client, channelId);
  if (roomIds.length === 0) return;
  if (removed.length > 0) {
    const gone = await removeFromRooms(client, roomIds, removed);
    for (const [roomId, accountIds] of byRoom(gone)) {
      const payload = { roomId, accountIds, channelId, reason: 'left_channel' as const };
      await emit(client, 'member.removed', payload, roomAudience(roomId));
      await emit(client, 'member.removed', payload, accountsAudience(accountIds));
    }
    await countMembers(client, gone, -1);
  }
  if (added.length > 0) {
    const joined = await addToRooms(client, roomIds, added, at);
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
  for (const r of changes) counts.set(r.room_id, (counts.get(r.room_id) ?? 0) + sign);
  await countRoomMembers(client, counts);
}
