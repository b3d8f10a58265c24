// The statements of the member operations: who is a member or an owner, the member counter, roles, leaving, and
// join requests (made, the pending one to resolve, its resolution, and who hears of it).
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

/** Who hears of a join request: the room's owners and admins, and the member who asked. */
export async function requestAudience(client: SqlClient, roomId: string, requestedBy: string): Promise<string[]> {
  const managers = await rows(
    client,
    chatDb.selectFrom('room_members').select('account_id').where('room_id', '=', roomId).where('role', 'in', ['OWNER', 'ADMIN']),
  );
  return [...new Set([...managers.map((r) => r.account_id), requestedBy])];
}

/** The join request of the room, its row locked; undefined when the room has no such request. */
export async function lockRequest(client: SqlClient, roomId: string, requestId: string) {
  return firstRow(
    client,
    chatDb
      .selectFrom('join_requests')
      .select(['account_id', 'requested_by', 'status'])
      .where('id', '=', requestId)
      .where('room_id', '=', roomId)
      .forUpdate(),
  );
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
export async function membersAmong(db: Runner, roomId: string, ids: string[]): Promise<string[]> {
  const present = await rows(
    db,
    chatDb
      .selectFrom('room_members')
      .select('account_id')
      .where('room_id', '=', roomId)
      .where('account_id', '=', sql<string>`any(${ids}::uuid[])`),
  );
  return present.map((r) => r.account_id);
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

/** One pending request per person and room (unique partial index): a repeat keeps the first request. */
export async function insertPendingRequests(
  client: SqlClient,
  request: { roomId: string; requestIds: string[]; accountIds: string[]; requestedBy: string; at: Date },
) {
  return rows(
    client,
    chatDb
      .insertInto('join_requests')
      .columns(['id', 'room_id', 'account_id', 'requested_by', 'status', 'created_at'])
      .expression(
        chatDb.selectNoFrom([
          sql<string>`unnest(${request.requestIds}::uuid[])`.as('id'),
          sql<string>`${request.roomId}::uuid`.as('room_id'),
          sql<string>`unnest(${request.accountIds}::uuid[])`.as('account_id'),
          sql<string>`${request.requestedBy}::uuid`.as('requested_by'),
          sql.lit('PENDING').as('status'),
          sql<Date>`${request.at}::timestamptz`.as('created_at'),
        ]),
      )
      .onConflict((oc) => oc.columns(['room_id', 'account_id']).where('status', '=', sql.lit('PENDING')).doNothing())
      .returning(['id', 'account_id']),
  );
}

/** Settles the pending requests of accounts added directly: approved by this addition. */
export async function approvePendingOf(client: SqlClient, roomId: string, accountIds: string[], by: string, at: Date): Promise<void> {
  await affected(
    client,
    chatDb
      .updateTable('join_requests')
      .set({ status: 'APPROVED', resolved_at: at, resolved_by: by })
      .where('room_id', '=', roomId)
      .where('account_id', '=', sql<string>`any(${accountIds}::uuid[])`)
      .where('status', '=', 'PENDING'),
  );
}

/** The member's role; undefined when the account is no member. */
export async function memberRole(client: SqlClient, roomId: string, accountId: string) {
  return firstRow(
    client,
    chatDb.selectFrom('room_members').select('role').where('room_id', '=', roomId).where('account_id', '=', accountId),
  );
}

export async function setMemberRole(client: SqlClient, roomId: string, accountId: string, role: string): Promise<void> {
  await affected(
    client,
    chatDb.updateTable('room_members').set({ role }).where('room_id', '=', roomId).where('account_id', '=', accountId),
  );
}

/** How many members besides the account the room has, and how many of them are owners. */
export async function othersThan(client: SqlClient, roomId: string, accountId: string) {
  const row = await firstRow(
    client,
    chatDb
      .selectFrom('room_members')
      .select([sql<number>`count(*)::int`.as('others'), sql<number>`(count(*) filter (where role = 'OWNER'))::int`.as('other_owners')])
      .where('room_id', '=', roomId)
      .where('account_id', '<>', accountId),
  );
  return row!;
}

export async function deleteMember(client: SqlClient, roomId: string, accountId: string): Promise<void> {
  await affected(client, chatDb.deleteFrom('room_members').where('room_id', '=', roomId).where('account_id', '=', accountId));
}

export const examples: QueryExamples = {
  requestAudience: (db) => requestAudience(db, example.id, example.otherId),
  lockRequest: (db) => lockRequest(db, example.id, example.otherId),
  otherOwners: (db) => otherOwners(db, example.id, example.otherId),
  resolveRequest: (db) => resolveRequest(db, example.id, 'APPROVED', example.at, example.otherId),
  membersAmong: (db) => membersAmong(db, example.id, [example.otherId]),
  countMembers: (db) => countMembers(db, example.id, 1),
  insertPendingRequests: (db) =>
    insertPendingRequests(db, {
      roomId: example.id,
      requestIds: [example.otherId],
      accountIds: [example.otherId],
      requestedBy: example.id,
      at: example.at,
    }),
  approvePendingOf: (db) => approvePendingOf(db, example.id, [example.otherId], example.id, example.at),
  memberRole: (db) => memberRole(db, example.id, example.otherId),
  setMemberRole: (db) => setMemberRole(db, example.id, example.otherId, 'ADMIN'),
  othersThan: (db) => othersThan(db, example.id, example.otherId),
  deleteMember: (db) => deleteMember(db, example.id, example.otherId),
};
