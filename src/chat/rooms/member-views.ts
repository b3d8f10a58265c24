// Members with their account's display fields, and join requests, in their wire shape.
import { muteState, type NotificationLevel, type RoomRole } from '../base/room-views.js';
import { preferenceSelection } from './room-query.js';
import { chatDb } from '../base/tables.js';

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

/** Members of a room (room_members m joined with accounts a); callers add conditions on m. */
export const memberQuery = (roomId: string) =>
  chatDb
    .selectFrom('room_members as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select(['m.account_id', 'm.role', 'm.joined_at', 'a.display_name', 'a.avatar_url', 'a.account_type'])
    // the caller's preferences, as the room list reads them
    .select((eb) => preferenceSelection(eb))
    .where('m.room_id', '=', roomId);

export type MemberRow = NonNullable<Awaited<ReturnType<ReturnType<typeof memberQuery>['executeTakeFirst']>>>;

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

/** Join requests of a room (join_requests j joined with the account that would join); callers add conditions on j. */
export const joinRequestQuery = (roomId: string) =>
  chatDb
    .selectFrom('join_requests as j')
    .innerJoin('accounts as a', 'a.id', 'j.account_id')
    .select(['j.id', 'j.room_id', 'j.account_id', 'a.display_name', 'a.avatar_url', 'j.requested_by', 'j.status'])
    .select(['j.created_at', 'j.resolved_at', 'j.resolved_by'])
    .where('j.room_id', '=', roomId);

export type JoinRequestRow = NonNullable<Awaited<ReturnType<ReturnType<typeof joinRequestQuery>['executeTakeFirst']>>>;

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
