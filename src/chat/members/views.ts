// Members with their account's display fields, and join requests, in their wire shape.
import { muteState, preferenceColumns, type NotificationLevel, type PreferenceColumns, type RoomRole } from '../rooms/views.js';

export type AccountType = 'USER' | 'BOT' | 'SERVICE';
export type JoinRequestStatus = 'PENDING' | 'APPROVED' | 'REJECTED' | 'CANCELLED';

export interface MemberRow extends PreferenceColumns {
  account_id: string;
  role: RoomRole;
  joined_at: Date;
  display_name: string;
  avatar_url: string | null;
  account_type: AccountType;
}

export interface MemberView {
  accountId: string;
  role: RoomRole;
  joinedAt: string;
  displayName: string;
  avatarUrl: string | null;
  accountType: AccountType;
  muted?: boolean;
  mutedUntil?: string | null;
  notificationLevel?: NotificationLevel;
  pinned?: boolean;
  archived?: boolean;
}

/** Members of room `$1` (room_members m joined with accounts a). */
export const memberSelect = `
  select m.account_id, m.role, m.joined_at, a.display_name, a.avatar_url, a.account_type, ${preferenceColumns}
    from room_members m join accounts a on a.id = m.account_id
   where m.room_id = $1`;

/** Preferences are personal: only the caller's own entry carries them. */
export function memberView(row: MemberRow, callerId: string, now: Date): MemberView {
  const view: MemberView = {
    accountId: row.account_id,
    role: row.role,
    joinedAt: row.joined_at.toISOString(),
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    accountType: row.account_type,
  };
  if (row.account_id !== callerId) return view;
  return { ...view, ...muteState(row, now), notificationLevel: row.notification_level, pinned: row.pinned, archived: row.archived };
}

export interface JoinRequestRow {
  id: string;
  room_id: string;
  account_id: string;
  display_name: string;
  avatar_url: string | null;
  requested_by: string;
  status: JoinRequestStatus;
  created_at: Date;
  resolved_at: Date | null;
  resolved_by: string | null;
}

export interface JoinRequestView {
  id: string;
  roomId: string;
  accountId: string;
  displayName: string;
  avatarUrl: string | null;
  requestedBy: string;
  status: JoinRequestStatus;
  createdAt: string;
  resolvedAt: string | null;
  resolvedBy: string | null;
}

/** Join requests of room `$1` (join_requests j joined with the account that would join). */
export const joinRequestSelect = `
  select j.id, j.room_id, j.account_id, a.display_name, a.avatar_url, j.requested_by, j.status, j.created_at, j.resolved_at, j.resolved_by
    from join_requests j join accounts a on a.id = j.account_id
   where j.room_id = $1`;

export function joinRequestView(row: JoinRequestRow): JoinRequestView {
  return {
    id: row.id,
    roomId: row.room_id,
    accountId: row.account_id,
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    requestedBy: row.requested_by,
    status: row.status,
    createdAt: row.created_at.toISOString(),
    resolvedAt: row.resolved_at ? row.resolved_at.toISOString() : null,
    resolvedBy: row.resolved_by,
  };
}
