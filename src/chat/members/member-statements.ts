// The statements the member operations share: who is a member or an owner, the member counter, and join requests
// (the pending one to resolve, its resolution, and who hears of it).
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, rows } from '../../platform/db/typed.js';
import { chatErrors } from '../base/errors.js';
import { chatDb } from '../base/tables.js';

const requestNotFound = () => chatErrors.notFound('Join request', 'join_request_not_found');

/** Who hears of a join request: the room's owners and admins, and the member who asked. */
export async function requestAudience(client: SqlClient, roomId: string, requestedBy: string): Promise<string[]> {
  const managers = await rows(
    client,
    chatDb.selectFrom('room_members').select('account_id').where('room_id', '=', roomId).where('role', 'in', ['OWNER', 'ADMIN']),
  );
  return [...new Set([...managers.map((r) => r.account_id), requestedBy])];
}

export async function pendingRequest(
  client: SqlClient,
  roomId: string,
  requestId: string,
): Promise<{ account_id: string; requested_by: string }> {
  const request = await firstRow(
    client,
    chatDb
      .selectFrom('join_requests')
      .select(['account_id', 'requested_by', 'status'])
      .where('id', '=', requestId)
      .where('room_id', '=', roomId)
      .forUpdate(),
  );
  if (!request) throw requestNotFound();
  if (request.status !== 'PENDING')
    throw chatErrors.conflict('join_request_resolved', `The join request was already resolved (${request.status}).`);
  return request;
}

export async function otherOwners(client: SqlClient, roomId: string, accountId: string): Promise<number> {
  const row = await firstRow(
    client,
    chatDb
      .selectFrom('room_members')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('room_id', '=', roomId)
      .where('role', '=', 'OWNER')
      .where('account_id', '<>', accountId),
  );
  return row!.n;
}

/** The request's resolution, by whom and when. */
export async function resolveRequest(
  client: SqlClient,
  requestId: string,
  status: 'APPROVED' | 'REJECTED',
  at: Date,
  by: string,
): Promise<void> {
  await affected(client, chatDb.updateTable('join_requests').set({ status, resolved_at: at, resolved_by: by }).where('id', '=', requestId));
}

/** Which of the accounts are members of the room. */
export function membersAmong(roomId: string, ids: string[]) {
  return chatDb
    .selectFrom('room_members')
    .select('account_id')
    .where('room_id', '=', roomId)
    .where('account_id', '=', sql<string>`any(${ids}::uuid[])`);
}

/** Adds `delta` to the room's member counter. */
export async function countMembers(client: SqlClient, roomId: string, delta: number): Promise<void> {
  await affected(
    client,
    chatDb
      .updateTable('rooms')
      .set((eb) => ({ member_count: eb('member_count', '+', delta) }))
      .where('id', '=', roomId),
  );
}
