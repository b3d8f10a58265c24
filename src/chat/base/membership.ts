// The caller's membership of a room, the gate of every room-scoped operation: a room the caller is not a member
// of (or a deleted one, whose member rows are gone) is 404, a missing role 403 and a fixed room type 409. The one
// place room access is checked: membership, role and the manager rule.
import type { SqlClient, SqlPool } from '../../platform/db/sql.js';
import type { Caller } from './context.js';
import { chatErrors } from './errors.js';
import { fixedRoomTypes, type AddMemberPolicy, type RoomRole, type RoomType } from './room-views.js';
import { memberExists, memberRole, membershipRow } from './queries.js';

export type Queryable = SqlPool | SqlClient;

export interface Membership {
  roomId: string;
  type: RoomType;
  policy: AddMemberPolicy;
  role: RoomRole;
}

/** With `lock`, the room row is locked: membership changes of one room are serialised on it. */
export async function membershipOf(db: Queryable, caller: Caller, roomId: string, lock = false): Promise<Membership> {
  const row = await membershipRow(db, caller.accountId, roomId, lock);
  if (!row) throw roomNotFound();
  return { roomId, type: row.type, policy: row.add_member_policy, role: row.role };
}

export const roomNotFound = () => chatErrors.notFound('Room', 'room_not_found');

/** The caller's role in the room; a non-member (or a deleted room, which has no members) is room_not_found. */
export async function roleIn(db: Queryable, roomId: string, accountId: string): Promise<RoomRole> {
  const role = await memberRole(db, roomId, accountId);
  if (!role) throw roomNotFound();
  return role;
}

/** Whether the account is a member of the room (a deleted room has no members). */
export async function isMember(db: Queryable, roomId: string, accountId: string): Promise<boolean> {
  return memberExists(db, roomId, accountId);
}

const roleOf = (subject: Membership | RoomRole): RoomRole => (typeof subject === 'string' ? subject : subject.role);

/** Owners and admins manage a room: its settings, pins for everyone, join requests. */
export const isManager = (subject: Membership | RoomRole): boolean => {
  const role = roleOf(subject);
  return role === 'OWNER' || role === 'ADMIN';
};

export function requireManager(subject: Membership | RoomRole, action: string): void {
  if (!isManager(subject)) throw chatErrors.forbidden(`Only an owner or admin of the room may ${action}.`);
}

export function requireOwner(m: Membership, action: string): void {
  if (m.role !== 'OWNER') throw chatErrors.forbidden(`Only an owner of the room may ${action}.`);
}

/** PRIVATE, SELF and REMINDER rooms come from get-or-create: their members, name and existence are fixed. */
export function refuseFixedType(m: Membership, action: string): void {
  if (fixedRoomTypes.includes(m.type)) {
    throw chatErrors.conflict(
      'unsupported_room_type',
      `A ${m.type} room cannot ${action}; archive or mute it instead to get it out of the way.`,
    );
  }
}
