// The statements of contact requests: whether two accounts are contacts, the requests as the caller sees them, and
// the writes of a request's lifecycle under the pair's lock.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, lockKey, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

/**
 * Whether two accounts are contacts: an ACCEPTED request in either direction, and the other account still active.
 * A 1-1 room across customers needs it (RoomService.getOrCreatePrivate).
 */
export async function acceptedContact(db: Runner, callerId: string, otherId: string): Promise<boolean> {
  const found = await affected(
    db,
    chatDb
      .selectFrom('contact_requests as c')
      .innerJoin('accounts as a', (join) => join.on('a.id', '=', otherId).on('a.status', '=', 'ACTIVE'))
      .select('c.id')
      .where('c.status', '=', 'ACCEPTED')
      .where((eb) =>
        eb.or([
          eb.and([eb('c.requester_id', '=', callerId), eb('c.invitee_id', '=', otherId)]),
          eb.and([eb('c.requester_id', '=', otherId), eb('c.invitee_id', '=', callerId)]),
        ]),
      )
      .limit(1),
  );
  return found > 0;
}

/** Requests involving the caller, with the other side's account; callers add conditions on c. */
const contactQuery = (callerId: string) =>
  chatDb
    .selectFrom('contact_requests as c')
    .innerJoin('accounts as a', (join) =>
      join.on((eb) =>
        eb('a.id', '=', eb.case().when('c.requester_id', '=', callerId).then(eb.ref('c.invitee_id')).else(eb.ref('c.requester_id')).end()),
      ),
    )
    .select(['c.id', 'c.requester_id', 'c.invitee_id', 'c.status', 'c.created_at', 'c.accepted_at', 'c.ended_at', 'a.id as other_id'])
    .select(['a.display_name', 'a.avatar_url', 'a.module_code', 'a.customer_account_id'])
    .where((eb) => eb.or([eb('c.requester_id', '=', callerId), eb('c.invitee_id', '=', callerId)]));

export type ContactRow = NonNullable<Awaited<ReturnType<ReturnType<typeof contactQuery>['executeTakeFirst']>>>;

/** One page of the caller's pending requests in one direction, newest first, after the keyset (created_at, id). */
export async function pendingContactPage(
  db: Runner,
  callerId: string,
  direction: 'incoming' | 'outgoing',
  after: { at: string; id: string } | null,
  limit: number,
): Promise<ContactRow[]> {
  return rows(
    db,
    contactQuery(callerId)
      .where('c.status', '=', 'PENDING')
      .where(direction === 'outgoing' ? 'c.requester_id' : 'c.invitee_id', '=', callerId)
      .$if(after !== null, (q) =>
        q.where((eb) =>
          eb(eb.refTuple('c.created_at', 'c.id'), '<', eb.tuple(sql<Date>`${after!.at}::timestamptz`, sql<string>`${after!.id}::uuid`)),
        ),
      )
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id', 'desc')
      .limit(limit),
  );
}

/** The request as the caller sees it; undefined when it involves someone else only or does not exist. */
export async function contactOf(db: Runner, callerId: string, requestId: string): Promise<ContactRow | undefined> {
  return firstRow(db, contactQuery(callerId).where('c.id', '=', requestId));
}

/** Whether the account is an active USER. */
export async function activeUser(db: Runner, accountId: string): Promise<boolean> {
  return (
    (await affected(
      db,
      chatDb
        .selectFrom('accounts')
        .select('id')
        .where('id', '=', accountId)
        .where('status', '=', 'ACTIVE')
        .where('account_type', '=', 'USER'),
    )) > 0
  );
}

/** Every change to the requests of one pair of accounts is serialised on this transaction lock. */
export async function lockPair(client: SqlClient, a: string, b: string): Promise<void> {
  const [low, high] = [a, b].sort();
  await lockKey(client, `contact:${low}:${high}`);
}

const requestSelect = chatDb.selectFrom('contact_requests').select(['id', 'requester_id', 'invitee_id', 'status']);
export type RequestRow = NonNullable<Awaited<ReturnType<typeof requestSelect.executeTakeFirst>>>;

/** The request, its row locked when asked. */
export async function requestOf(client: SqlClient, requestId: string, forUpdate: boolean): Promise<RequestRow | undefined> {
  const one = requestSelect.where('id', '=', requestId);
  return firstRow(client, forUpdate ? one.forUpdate() : one);
}

/** The ACCEPTED requests between the two accounts (one per direction at most), locked. */
export async function acceptedBetween(client: SqlClient, request: RequestRow): Promise<RequestRow[]> {
  return rows(
    client,
    requestSelect
      .where('status', '=', 'ACCEPTED')
      .where((eb) =>
        eb.or([
          eb.and([eb('requester_id', '=', request.requester_id), eb('invitee_id', '=', request.invitee_id)]),
          eb.and([eb('requester_id', '=', request.invitee_id), eb('invitee_id', '=', request.requester_id)]),
        ]),
      )
      .forUpdate(),
  );
}

/** The live (PENDING or ACCEPTED) request of one direction; ended ones are history. */
export async function liveRequest(client: SqlClient, requesterId: string, inviteeId: string) {
  return firstRow(
    client,
    chatDb
      .selectFrom('contact_requests')
      .select(['id', 'status'])
      .where('requester_id', '=', requesterId)
      .where('invitee_id', '=', inviteeId)
      .where('status', 'in', ['PENDING', 'ACCEPTED']),
  );
}

export async function insertRequest(
  client: SqlClient,
  request: { id: string; requesterId: string; inviteeId: string; status: string; at: Date; acceptedAt: Date | null },
): Promise<void> {
  await affected(
    client,
    chatDb.insertInto('contact_requests').values({
      id: request.id,
      requester_id: request.requesterId,
      invitee_id: request.inviteeId,
      status: request.status,
      created_at: request.at,
      accepted_at: request.acceptedAt,
    }),
  );
}

export async function acceptRequest(client: SqlClient, requestId: string, now: Date): Promise<void> {
  await affected(client, chatDb.updateTable('contact_requests').set({ status: 'ACCEPTED', accepted_at: now }).where('id', '=', requestId));
}

/** Ends the request in the given status. */
export async function endRequest(client: SqlClient, requestId: string, status: string, now: Date): Promise<void> {
  await affected(client, chatDb.updateTable('contact_requests').set({ status, ended_at: now }).where('id', '=', requestId));
}

const request: RequestRow = { id: example.id, requester_id: example.id, invitee_id: example.otherId, status: 'ACCEPTED' };

export const examples: QueryExamples = {
  acceptedContact: (db) => acceptedContact(db, example.id, example.otherId),
  pendingContactPage: (db) => pendingContactPage(db, example.id, 'outgoing', { at: example.at.toISOString(), id: example.otherId }, 51),
  contactOf: (db) => contactOf(db, example.id, example.otherId),
  activeUser: (db) => activeUser(db, example.id),
  lockPair: (db) => lockPair(db, example.id, example.otherId),
  requestOf: (db) => requestOf(db, example.id, true),
  acceptedBetween: (db) => acceptedBetween(db, request),
  liveRequest: (db) => liveRequest(db, example.id, example.otherId),
  insertRequest: (db) =>
    insertRequest(db, {
      id: example.id,
      requesterId: example.id,
      inviteeId: example.otherId,
      status: 'PENDING',
      at: example.at,
      acceptedAt: null,
    }),
  acceptRequest: (db) => acceptRequest(db, example.id, example.at),
  endRequest: (db) => endRequest(db, example.id, 'DECLINED', example.at),
};
