// Rows of rooms joined with the caller's membership, and their wire shape.

export type RoomType = 'GROUP' | 'CHANNEL' | 'CROSS_MODULE' | 'PRIVATE' | 'SELF' | 'REMINDER';
export type RoomRole = 'OWNER' | 'ADMIN' | 'MEMBER';
export type AddMemberPolicy = 'ADMIN_ONLY' | 'ALL_MEMBERS' | 'ALL_MEMBERS_WITH_APPROVAL';

export interface RoomRow {
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
  archived: boolean;
}

export interface RoomMemberSummary {
  accountId: string;
  role: RoomRole;
  joinedAt: string;
}

export interface RoomView {
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
  members?: RoomMemberSummary[];
  membersTruncated: boolean;
}

/** Selects a room with the caller's membership; the caller's id is the first parameter. */
export const roomSelect = `
  select r.id, r.type, r.name, r.description, r.add_member_policy, r.channel_id, r.member_count, r.created_by,
         r.created_at, r.last_activity_at, m.role as my_role, m.archived
    from room_members m join rooms r on r.id = m.room_id
   where m.account_id = $1`;

export function roomView(row: RoomRow): RoomView {
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
    membersTruncated: false,
  };
}
