// Join requests: what a regular member's additions become under ALL_MEMBERS_WITH_APPROVAL, and their list for the
// room's owners and admins. Approving and rejecting one are MemberService's.
import type { SqlClient } from '../../platform/db/sql.js';
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { membershipOf, requireManager } from '../base/membership.js';
import type { Page } from '../base/paging.js';
import { accountsAudience, emit } from '../events/emit.js';
import { isCursorUuid } from '../rooms/cursors.js';
import { pendingRequestPage, pendingRequestsOf } from '../rooms/member-queries.js';
import { joinRequestView, type JoinRequestView } from '../rooms/member-views.js';
import { insertPendingRequests, lockRequest, membersAmong, requestAudience } from './queries.js';

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
  const presentIds = new Set(await membersAmong(client, roomId, ids));
  const outside = ids.filter((id) => !presentIds.has(id));
  const made = await insertPendingRequests(client, {
    roomId,
    requestIds: outside.map(() => newId()),
    accountIds: outside,
    requestedBy: caller.accountId,
    at: deps.clock.now(),
  });
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
  const pending = await pendingRequestsOf(client, roomId, outside);
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
  let afterId: string | null = null;
  if (query.cursor !== undefined) {
    const c = decodeCursor(query.cursor, list);
    if (!c || !isCursorUuid(c.i)) throw chatErrors.invalidCursor('query.cursor');
    afterId = c.i;
  }
  requireManager(await membershipOf(deps.sql, caller, roomId), 'see its join requests');
  const found = await pendingRequestPage(deps.sql, roomId, afterId, limit + 1);
  const hasMore = found.length > limit;
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  return { items: page.map(joinRequestView), hasMore, nextCursor: hasMore && last ? encodeCursor({ i: last.id }, list) : null };
}

const requestNotFound = () => chatErrors.notFound('Join request', 'join_request_not_found');

/** The room's join request, locked; refused unless it is still pending. */
export async function pendingRequest(
  client: SqlClient,
  roomId: string,
  requestId: string,
): Promise<{ account_id: string; requested_by: string }> {
  const request = await lockRequest(client, roomId, requestId);
  if (!request) throw requestNotFound();
  if (request.status !== 'PENDING')
    throw chatErrors.conflict('join_request_resolved', `The join request was already resolved (${request.status}).`);
  return request;
}
