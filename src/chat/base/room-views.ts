// Rows of rooms joined with the caller's membership (room-queries.ts selects them), and their wire shape.

export type RoomType = 'GROUP' | 'CHANNEL' | 'CROSS_MODULE' | 'PRIVATE' | 'SELF' | 'REMINDER';
export type RoomRole = 'OWNER' | 'ADMIN' | 'MEMBER';
export type AddMemberPolicy = 'ADMIN_ONLY' | 'ALL_MEMBERS' | 'ALL_MEMBERS_WITH_APPROVAL';
export type NotificationLevel = 'ALL' | 'MENTIONS' | 'NONE';

/** Room types made by get-or-create operations: fixed members, no name, cannot be deleted or left. */
export const fixedRoomTypes: readonly RoomType[] = ['PRIVATE', 'SELF', 'REMINDER'];

/** The caller's own preference columns of a room_members row (muted_until 'infinity' is read as muted_forever). */
export interface PreferenceColumns {
  archived: boolean;
  pinned: boolean;
  muted_until: Date | null;
  muted_forever: boolean;
  notification_level: NotificationLevel;
}

export interface RoomRow extends PreferenceColumns {
  id: string;
  type: RoomType;
  name: string | null;
  description: string | null;
  add_member_policy: AddMemberPolicy;
  channel_id: string | null;
  member_count: number;
  created_by: string;
  created_at: Date;
  last_activity_at: Date;
  my_role: RoomRole;
  unread_count: number;
  mention_count: number;
  last_id: string | null;
  last_sender_id: string | null;
  last_text: string | null;
  last_recalled: boolean | null;
  last_created_at: Date | null;
  /** The caller's label ids on the room, by label name. */
  label_ids: string[];
}

export interface RoomMemberSummary {
  accountId: string;
  role: RoomRole;
  joinedAt: string;
}

export interface MessagePreview {
  id: string;
  senderId: string;
  text: string | null;
  createdAt: string;
}

export interface MuteState {
  muted: boolean;
  mutedUntil: string | null;
}

export interface RoomView extends MuteState {
  id: string;
  type: RoomType;
  name: string | null;
  description: string | null;
  addMemberPolicy: AddMemberPolicy;
  channelId: string | null;
  memberCount: number;
  createdBy: string;
  createdAt: string;
  lastActivityAt: string;
  myRole: RoomRole;
  archived: boolean;
  pinned: boolean;
  notificationLevel: NotificationLevel;
  unreadCount: number;
  mentionCount: number;
  lastMessage: MessagePreview | null;
  members?: RoomMemberSummary[];
  membersTruncated: boolean;
  labelIds: string[];
}

/** Muted now: permanently, or until an instant still ahead. An expired mute reads as not muted. */
export function muteState(row: Pick<PreferenceColumns, 'muted_until' | 'muted_forever'>, now: Date): MuteState {
  if (row.muted_forever) return { muted: true, mutedUntil: null };
  if (row.muted_until && row.muted_until.getTime() > now.getTime()) return { muted: true, mutedUntil: row.muted_until.toISOString() };
  return { muted: false, mutedUntil: null };
}

export function roomView(row: RoomRow, now: Date): RoomView {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    description: row.description,
    addMemberPolicy: row.add_member_policy,
    channelId: row.channel_id,
    memberCount: row.member_count,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    lastActivityAt: row.last_activity_at.toISOString(),
    myRole: row.my_role,
    archived: row.archived,
    pinned: row.pinned,
    ...muteState(row, now),
    notificationLevel: row.notification_level,
    unreadCount: row.unread_count,
    mentionCount: row.mention_count,
    lastMessage:
      row.last_id && row.last_sender_id && row.last_created_at
        ? {
            id: row.last_id,
            senderId: row.last_sender_id,
            text: row.last_recalled ? null : row.last_text,
            createdAt: row.last_created_at.toISOString(),
          }
        : null,
    membersTruncated: false,
    labelIds: row.label_ids,
  };
}
