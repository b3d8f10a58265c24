// Rows of rooms joined with the caller's membership, and their wire shape.
import { unreadMentionsOf } from '../mentions/sql.js';

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

/** Preference columns of room_members aliased `m`; a permanent mute is stored as 'infinity'. */
export const preferenceColumns = `m.archived, m.pinned, m.notification_level,
  case when m.muted_until = 'infinity' then null else m.muted_until end as muted_until,
  coalesce(m.muted_until = 'infinity', false) as muted_forever`;

/**
 * The caller's unread count of a room (decision 5 of the team brief, docs/adr/0015-unread-minus-hides.md): top-level messages after
 * the read mark, not the caller's, not recalled, not hidden by the caller. `$1` is the caller. Counted as the
 * qualifying messages (an index-only range scan of messages_room_top_level from the read mark, nothing probed per
 * message) minus the caller's hides among them (the caller's few hides of the room, from message_hides_room, looked
 * up by primary key): the same number as an anti-join, without a hides lookup for each of thousands of unread.
 */
export function unreadCountOf(roomColumn: string, markColumn: string): string {
  const qualifies = (x: string) =>
    `${x}.thread_root_id is null and ${x}.seq > ${markColumn} and ${x}.sender_id <> $1 and ${x}.recalled_at is null`;
  // A hide row carries its message's room (MessageLifecycleService.hide checks it), so the hidden messages of the
  // room are found from message_hides alone and each is read by primary key.
  return `((select count(*)::int from messages x where x.room_id = ${roomColumn} and ${qualifies('x')})
          - (select count(*)::int from message_hides h join messages hx on hx.id = h.message_id
              where h.account_id = $1 and h.room_id = ${roomColumn} and ${qualifies('hx')}))`;
}

/**
 * The caller's rooms with the caller's unread count and last message, in one statement. `$1` is the caller;
 * `filter` narrows `room_members m join rooms r` and `page` orders and limits it, so the unread count and the
 * last-message lookup run only for the rooms of the page.
 */
export function roomQuery(filter: string, page = ''): string {
  return `
  select p.*, ${unreadCountOf('p.id', 'p.last_read_seq')} as unread_count, ${unreadMentionsOf('p.id', 'p.last_read_seq')} as mention_count,
         lm.id as last_id, lm.sender_id as last_sender_id, lm.text as last_text,
         lm.recalled_at is not null as last_recalled, lm.created_at as last_created_at,
         array(select l.id from room_labels rl join labels l on l.id = rl.label_id
                where rl.account_id = $1 and rl.room_id = p.id order by lower(l.name), l.id) as label_ids
    from (
      select r.id, r.type, r.name, r.description, r.add_member_policy, r.channel_id, r.member_count, r.created_by,
             r.created_at, r.last_activity_at, m.role as my_role, m.last_read_seq, ${preferenceColumns}
        from room_members m join rooms r on r.id = m.room_id
       where m.account_id = $1 and r.deleted_at is null ${filter}
       ${page}
    ) p
    left join lateral (
      -- the newest top-level message the caller has not hidden: a backward scan of messages_room_top_level
      select x.id, x.sender_id, x.text, x.recalled_at, x.created_at from messages x
       where x.room_id = p.id and x.thread_root_id is null
         and not exists (select 1 from message_hides h where h.account_id = $1 and h.message_id = x.id)
       order by x.seq desc limit 1
    ) lm on true`;
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
