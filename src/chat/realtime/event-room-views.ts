// The room and member views events carry: the room without the caller's own fields, and the members an event names.
import type { SqlClient } from '../../platform/db/sql.js';
import type { MemberView } from '../rooms/member-views.js';
import type { RoomView } from '../base/room-views.js';
import { eventMemberRows, eventRoomRows } from './event-view-queries.js';

/** The room's view without the caller's own fields (role, preferences, unread counts). */
export type EventRoomView = Pick<
  RoomView,
  | 'id'
  | 'type'
  | 'name'
  | 'description'
  | 'addMemberPolicy'
  | 'channelId'
  | 'memberCount'
  | 'createdBy'
  | 'createdAt'
  | 'lastActivityAt'
  | 'lastMessage'
>;

/** A member's view without the member's own preferences. */
export type EventMemberView = Pick<MemberView, 'accountId' | 'role' | 'joinedAt' | 'displayName' | 'avatarUrl' | 'accountType'>;

export async function roomViews(client: SqlClient, roomIds: string[]): Promise<Map<string, EventRoomView>> {
  if (roomIds.length === 0) return new Map();
  const rows = await eventRoomRows(client, roomIds);
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        type: r.type,
        name: r.name,
        description: r.description,
        addMemberPolicy: r.add_member_policy,
        channelId: r.channel_id,
        memberCount: r.member_count,
        createdBy: r.created_by,
        createdAt: r.created_at.toISOString(),
        lastActivityAt: r.last_activity_at.toISOString(),
        lastMessage:
          r.last_id && r.last_sender_id && r.last_created_at
            ? {
                id: r.last_id,
                senderId: r.last_sender_id,
                text: r.last_recalled_at ? null : r.last_text,
                createdAt: r.last_created_at.toISOString(),
              }
            : null,
      },
    ]),
  );
}

/** Member views keyed `roomId:accountId`, of those still members. */
export async function memberViews(client: SqlClient, roomIds: string[], accountIds: string[]): Promise<Map<string, EventMemberView>> {
  if (roomIds.length === 0) return new Map();
  const rows = await eventMemberRows(client, roomIds, accountIds);
  return new Map(
    rows.map((r) => [
      `${r.room_id}:${r.account_id}`,
      {
        accountId: r.account_id,
        role: r.role,
        joinedAt: r.joined_at.toISOString(),
        displayName: r.display_name,
        avatarUrl: r.avatar_url,
        accountType: r.account_type,
      },
    ]),
  );
}
