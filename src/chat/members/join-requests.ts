// Join requests: what a regular member's additions become under ALL_MEMBERS_WITH_APPROVAL, and their list for the
// room's owners and admins. Approving and rejecting one are MemberService's.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { rows } from '../../platform/db/typed.js';
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { membershipOf, requireManager } from '../base/membership.js';
import type { Page } from '../base/paging.js';
import { chatDb } from '../base/tables.js';
import { accountsAudience, emit } from '../events/emit.js';
import { isCursorUuid } from '../rooms/cursors.js';
import { joinRequestQuery, joinRequestView, type JoinRequestView } from '../rooms/member-views.js';
import { membersAmong, requestAudience } from './member-statements.js';

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

export interface AddMembersResult {
  status: 'ADDED' | 'PENDING_APPROVAL';
  added: string[];
  pending: JoinRequestView[];
  alreadyPending: string[];
  alreadyMembers: string[];
}

export async function requestToJoin(
  deps: ChatDeps,
  client: SqlClient,
  caller: Caller,
  roomId: string,
  ids: string[],
): Promise<AddMembersResult> {
  const present = await rows(client, membersAmong(roomId, ids));
  const presentIds = new Set(present.map((r) => r.account_id));
  const outside = ids.filter((id) => !presentIds.has(id));
  // One pending request per person and room (unique partial index): a repeat keeps the first request.
  const made = await rows(
    client,
    chatDb
      .insertInto('join_requests')
      .columns(['id', 'room_id', 'account_id', 'requested_by', 'status', 'created_at'])
      .expression(
        chatDb.selectNoFrom([
          sql<string>`unnest(${outside.map(() => newId())}::uuid[])`.as('id'),
          sql<string>`${roomId}::uuid`.as('room_id'),
          sql<string>`unnest(${outside}::uuid[])`.as('account_id'),
          sql<string>`${caller.accountId}::uuid`.as('requested_by'),
          sql.lit('PENDING').as('status'),
          sql<Date>`${deps.clock.now()}::timestamptz`.as('created_at'),
        ]),
      )
      .onConflict((oc) => oc.columns(['room_id', 'account_id']).where('status', '=', sql.lit('PENDING')).doNothing())
      .returning(['id', 'account_id']),
  );
  if (made.length > 0) {
    const audience = accountsAudience(await requestAudience(client, roomId, caller.accountId));
    for (const r of made) {
      await emit(
        client,
        'join_request.created',
        { roomId, requestId: r.id, accountId: r.account_id, requestedBy: caller.accountId },
        audience,
      );
    }
  }
  const pending = await rows(
    client,
    joinRequestQuery(roomId)
      .where('j.account_id', '=', sql<string>`any(${outside}::uuid[])`)
      .where('j.status', '=', 'PENDING')
      .orderBy('j.id'),
  );
  const madeIds = new Set(made.map((r) => r.account_id));
  return {
    status: 'PENDING_APPROVAL',
    added: [],
    pending: pending.map(joinRequestView),
    alreadyPending: pending.filter((r) => !madeIds.has(r.account_id)).map((r) => r.account_id),
    alreadyMembers: ids.filter((id) => presentIds.has(id)),
  };
}

/** Pending requests, oldest first (request ids are time-ordered), owner/admin only. */
export async function listJoinRequests(deps: ChatDeps, caller: Caller, roomId: string, query: PageQuery): Promise<Page<JoinRequestView>> {
  const list = `join-requests:${roomId}`;
  const limit = query.limit ?? 50;
  let select = joinRequestQuery(roomId).where('j.status', '=', 'PENDING');
  if (query.cursor !== undefined) {
    const c = decodeCursor(query.cursor, list);
    if (!c || !isCursorUuid(c.i)) throw chatErrors.invalidCursor('query.cursor');
    select = select.where('j.id', '>', sql<string>`${c.i}::uuid`);
  }
  requireManager(await membershipOf(deps.sql, caller, roomId), 'see its join requests');
  const found = await rows(deps.sql, select.orderBy('j.id').limit(limit + 1));
  const hasMore = found.length > limit;
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  return { items: page.map(joinRequestView), hasMore, nextCursor: hasMore && last ? encodeCursor({ i: last.id }, list) : null };
}
