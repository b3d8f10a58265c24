// The caller's membership of a room, the gate of every room-scoped operation: a room the caller is not a member
// of (or a deleted one, whose member rows are gone) is 404, a missing role 403 and a fixed room type 409.
import type { SqlClient, SqlPool } from '../../platform/db/sql.js';
import type { Caller } from '../context.js';
import { chatErrors } from '../errors.js';
import { fixedRoomTypes, type AddMemberPolicy, type RoomRole, type RoomType } from './views.js';

export type Queryable = SqlPool | SqlClient;

export interface Membership {
  roomId: string;
  type: RoomType;
  policy: AddMemberPolicy;
  role: RoomRole;
}

/** With `lock`, the room row is locked: membership changes of one room are serialised on it. */
export async function membershipOf(db: Queryable, caller: Caller, roomId: string, lock = false): Promise<Membership> {
  const { rows } = await db.query<{ type: RoomType; add_member_policy: AddMemberPolicy; role: RoomRole }>(
    `select r.type, r.add_member_policy, m.role
       from rooms r join room_members m on m.room_id = r.id and m.account_id = $2
      where r.id = $1 and r.deleted_at is null ${lock ? 'for update of r' : ''}`,
    [roomId, caller.accountId],
  );
  const row = rows[0];
  if (!row) throw roomNotFound();
  return { roomId, type: row.type, policy: row.add_member_policy, role: row.role };
}

export const roomNotFound = () => chatErrors.notFound('Room', 'room_not_found');

export const isManager = (m: Membership) => m.role === 'OWNER' || m.role === 'ADMIN';

export function requireManager(m: Membership, action: string): void {
  if (!isManager(m)) throw chatErrors.forbidden(`Only an owner or admin of the room may ${action}.`);
}

export function requireOwner(m: Membership, action: string): void {
  if (m.role !== 'OWNER') throw chatErrors.forbidden(`Only an owner of the room may ${action}.`);
}

/** PRIVATE, SELF and REMINDER rooms come from get-or-create: their members, name and existence are fixed. */
export function refuseFixedType(m: Membership, action: string): void {
  if (fixedRoomTypes.includes(m.type)) {
    throw chatErrors.conflict('unsupported_room_type', `A ${m.type} room cannot ${action}; archive or mute it instead to get it out of the way.`);
  }
}
