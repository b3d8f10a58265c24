// The statements of a room's members with their account's display fields, and of its join requests.
import { sql } from 'kysely';
import { firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';
import { preferenceSelection } from './room-queries.js';

/** Members of a room (room_members m joined with accounts a); callers add conditions on m. */
const memberQuery = (roomId: string) =>
  chatDb
    .selectFrom('room_members as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .select(['m.account_id', 'm.role', 'm.joined_at', 'a.display_name', 'a.avatar_url', 'a.account_type'])
    // the caller's preferences, as the room list reads them
    .select((eb) => preferenceSelection(eb))
    .where('m.room_id', '=', roomId);

export type MemberRow = NonNullable<Awaited<ReturnType<ReturnType<typeof memberQuery>['executeTakeFirst']>>>;

/** One page of the room's members in joining order, after the keyset (joined_at, account_id). */
export async function memberPage(
  db: Runner,
  roomId: string,
  after: { at: string; id: string } | null,
  limit: number,
): Promise<MemberRow[]> {
  return rows(
    db,
    memberQuery(roomId)
      .$if(after !== null, (q) =>
        q.where((eb) =>
          eb(
            eb.refTuple('m.joined_at', 'm.account_id'),
            '>',
            eb.tuple(sql<Date>`${after!.at}::timestamptz`, sql<string>`${after!.id}::uuid`),
          ),
        ),
      )
      .orderBy('m.joined_at')
      .orderBy('m.account_id')
      .limit(limit),
  );
}

/** The account as a member of the room; undefined when it is none. */
export async function memberOf(db: Runner, roomId: string, accountId: string): Promise<MemberRow | undefined> {
  return firstRow(db, memberQuery(roomId).where('m.account_id', '=', accountId));
}

/** Join requests of a room (join_requests j joined with the account that would join); callers add conditions on j. */
const joinRequestQuery = (roomId: string) =>
  chatDb
    .selectFrom('join_requests as j')
    .innerJoin('accounts as a', 'a.id', 'j.account_id')
    .select(['j.id', 'j.room_id', 'j.account_id', 'a.display_name', 'a.avatar_url', 'j.requested_by', 'j.status'])
    .select(['j.created_at', 'j.resolved_at', 'j.resolved_by'])
    .where('j.room_id', '=', roomId);

export type JoinRequestRow = NonNullable<Awaited<ReturnType<ReturnType<typeof joinRequestQuery>['executeTakeFirst']>>>;

/** The pending requests of the accounts to join the room, by request id. */
export async function pendingRequestsOf(db: Runner, roomId: string, accountIds: string[]): Promise<JoinRequestRow[]> {
  return rows(
    db,
    joinRequestQuery(roomId)
      .where('j.account_id', '=', sql<string>`any(${accountIds}::uuid[])`)
      .where('j.status', '=', 'PENDING')
      .orderBy('j.id'),
  );
}

/** One page of the room's pending requests, oldest first (request ids are time-ordered), after the request id. */
export async function pendingRequestPage(db: Runner, roomId: string, afterId: string | null, limit: number): Promise<JoinRequestRow[]> {
  return rows(
    db,
    joinRequestQuery(roomId)
      .where('j.status', '=', 'PENDING')
      .$if(afterId !== null, (q) => q.where('j.id', '>', sql<string>`${afterId}::uuid`))
      .orderBy('j.id')
      .limit(limit),
  );
}

export const examples: QueryExamples = {
  memberPage: (db) => memberPage(db, example.id, { at: example.at.toISOString(), id: example.otherId }, 101),
  memberOf: (db) => memberOf(db, example.id, example.otherId),
  pendingRequestsOf: (db) => pendingRequestsOf(db, example.id, [example.otherId]),
  pendingRequestPage: (db) => pendingRequestPage(db, example.id, example.otherId, 51),
};
