// Rooms of a channel: a room created with a channelId takes every member of the channel (sync.ts keeps it so as
// members join and leave the channel).
import type { SqlClient } from '../../platform/db/sql.js';
import type { Caller } from '../context.js';
import { channelAccess, requireChannelManager } from './access.js';

/**
 * Locks the channel (so that no membership change slips between reading its members and creating the room),
 * checks that the caller is its OWNER or ADMIN, and answers the channel's members besides the caller.
 */
export async function channelRoomMembers(client: SqlClient, caller: Caller, channelId: string): Promise<string[]> {
  requireChannelManager(await channelAccess(client, caller, channelId, true), 'add rooms to it');
  const { rows } = await client.query<{ account_id: string }>(
    'select account_id from channel_members where channel_id = $1 and account_id <> $2 order by joined_at, account_id',
    [channelId, caller.accountId],
  );
  return rows.map((r) => r.account_id);
}
