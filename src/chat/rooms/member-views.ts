// Members with their account's display fields, and join requests, in their wire shape.
import { muteState, type NotificationLevel, type RoomRole } from '../base/room-views.js';
import type { JoinRequestRow, MemberRow } from './member-queries.js';

export type AccountType = 'USER' | 'BOT' | 'SERVICE';
export type JoinRequestStatus = 'PENDING' | 'APPROVED' | 'REJECTED' | 'CANCELLED';

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

/** Preferences are personal: only the caller's own entry carries them. */
export function memberView(row: MemberRow, callerId: string, now: Date): MemberView {
  const view: MemberView = {
    accountId: row.account_id,
    // the service writes no other role or level; accounts hold no other type
    role: row.role as RoomRole,
    joinedAt: row.joined_at.toISOString(),
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    accountType: row.account_type as AccountType,
  };
  if (row.account_id !== callerId) return view;
  const notificationLevel = row.notification_level as NotificationLevel;
  return { ...view, ...muteState(row, now), notificationLevel, pinned: row.pinned, archived: row.archived };
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

export function joinRequestView(row: JoinRequestRow): JoinRequestView {
  return {
    id: row.id,
    roomId: row.room_id,
    accountId: row.account_id,
    displayName: row.display_name,
    avatarUrl: row.avatar_url,
    requestedBy: row.requested_by,
    // the service writes no other status
    status: row.status as JoinRequestStatus,
    createdAt: row.created_at.toISOString(),
    resolvedAt: row.resolved_at ? row.resolved_at.toISOString() : null,
    resolvedBy: row.resolved_by,
  };
}
