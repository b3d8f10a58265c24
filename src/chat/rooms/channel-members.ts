// Rooms of a channel: a room created with a channelId takes every member of the channel (channels/sync.ts keeps it
// so as members join and leave the channel).
import type { SqlClient } from '../../platform/db/sql.js';
import type { Caller } from '../base/context.js';
import { channelAccess, requireChannelManager } from '../base/channel-access.js';
import { channelMembersBesides } from './queries.js';

/**
 * Locks the channel (so that no membership change slips between reading its members and creating the room),
 * checks that the caller is its OWNER or ADMIN, and answers the channel's members besides the caller.
 */
export async function channelRoomMembers(client: SqlClient, caller: Caller, channelId: string): Promise<string[]> {
  requireChannelManager(await channelAccess(client, caller, channelId, true), 'add rooms to it');
  return channelMembersBesides(client, channelId, caller.accountId);
}
