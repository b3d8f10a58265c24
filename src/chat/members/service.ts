// Members of a room: the member list, additions under the room's policy, join requests, role changes and leaving.
// Every change locks the room row first, so concurrent changes of one room (two owners leaving at once) are
// serialised and the last-owner rule holds.
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { isCursorInstant, isCursorUuid } from '../rooms/cursors.js';
import { deleteRoomRows } from '../rooms/deletion.js';
import { accountsAudience, emit, roomAudience } from '../events/emit.js';
import { isManager, membershipOf, refuseFixedType, requireManager, requireOwner } from '../base/membership.js';
import type { Page } from '../base/paging.js';
import { insertMembers } from '../rooms/queries.js';
import type { RoomService } from '../rooms/service.js';
import type { RoomRole } from '../base/room-views.js';
import { memberOf, memberPage } from '../rooms/member-queries.js';
import { memberView, type JoinRequestView, type MemberView } from '../rooms/member-views.js';
import { listJoinRequests, pendingRequest, requestToJoin, type AddMembersResult, type PageQuery } from './join-requests.js';
import {
  approvePendingOf,
  countMembers,
  deleteMember,
  memberRole,
  membersAmong,
  otherOwners,
  othersThan,
  requestAudience,
  resolveRequest,
  setMemberRole,
} from './queries.js';

export type { AddMembersResult, PageQuery } from './join-requests.js';

const lastOwner = (message: string) => chatErrors.conflict('last_owner', message);

export class MemberService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly rooms: RoomService,
  ) {}

  /** Joining order, keyset on (joined_at, account_id). */
  async list(caller: Caller, roomId: string, query: PageQuery): Promise<Page<MemberView>> {
    const list = `members:${roomId}`;
    const limit = query.limit ?? 100;
    let after: { at: string; id: string } | null = null;
    if (query.cursor !== undefined) {
      const c = decodeCursor(query.cursor, list);
      if (!c || !isCursorInstant(c.a) || !isCursorUuid(c.i)) throw chatErrors.invalidCursor('query.cursor');
      after = { at: c.a, id: c.i };
    }
    await membershipOf(this.deps.sql, caller, roomId);
    const found = await memberPage(this.deps.sql, roomId, after, limit + 1);
    const hasMore = found.length > limit;
    const page = found.slice(0, limit);
    const now = this.deps.clock.now();
    const last = page[page.length - 1];
    return {
      items: page.map((row) => memberView(row, caller.accountId, now)),
      hasMore,
      nextCursor: hasMore && last ? encodeCursor({ a: last.joined_at.toISOString(), i: last.account_id }, list) : null,
    };
  }

  /**
   * ADMIN_ONLY: owner/admin add. ALL_MEMBERS: any member adds. ALL_MEMBERS_WITH_APPROVAL: owner/admin add, a
   * regular member's additions become pending join requests. Members and pending requests already there are
   * reported and left as they are.
   */
  async add(caller: Caller, roomId: string, accountIds: string[]): Promise<AddMembersResult> {
    const requested = accountIds.map((id) => id.toLowerCase());
    const ids = [...new Set(requested)];
    const before = await membershipOf(this.deps.sql, caller, roomId);
    refuseFixedType(before, 'take more members');
    if (before.policy === 'ADMIN_ONLY') requireManager(before, 'add members to it (policy ADMIN_ONLY)');
    const presentIds = new Set(await membersAmong(this.deps.sql, roomId, ids));
    await this.rooms.checkAddable(
      caller,
      ids.filter((id) => !presentIds.has(id)),
      before.type === 'CROSS_MODULE',
      'body.accountIds',
      { requested },
    );

    const result = await inTransaction(this.deps.sql, async (client) => {
      // The role or policy may have changed since the checks above; the locked row decides.
      const m = await membershipOf(client, caller, roomId, true);
      if (m.policy === 'ADMIN_ONLY') requireManager(m, 'add members to it (policy ADMIN_ONLY)');
      const direct = m.policy === 'ALL_MEMBERS' || isManager(m);
      return direct ? this.addDirectly(client, caller, roomId, ids) : requestToJoin(this.deps, client, caller, roomId, ids);
    });
    return result;
  }

  private async addDirectly(client: SqlClient, caller: Caller, roomId: string, ids: string[]): Promise<AddMembersResult> {
    const now = this.deps.clock.now();
    const inserted = new Set(
      await insertMembers(
        client,
        roomId,
        ids.map((accountId) => ({ accountId, role: 'MEMBER' as const })),
        now,
      ),
    );
    const added = ids.filter((id) => inserted.has(id));
    if (added.length > 0) {
      await countMembers(client, roomId, added.length);
      // A person added directly no longer waits: their pending request is settled by this addition.
      await approvePendingOf(client, roomId, added, caller.accountId, now);
      await emit(client, 'member.added', { roomId, accountIds: added, role: 'MEMBER', addedBy: caller.accountId }, roomAudience(roomId));
    }
    return { status: 'ADDED', added, pending: [], alreadyPending: [], alreadyMembers: ids.filter((id) => !inserted.has(id)) };
  }

  /** Owner only. The last owner cannot be demoted: another member must be made OWNER first. */
  async changeRole(caller: Caller, roomId: string, accountId: string, role: RoomRole): Promise<MemberView> {
    await inTransaction(this.deps.sql, async (client) => {
      const m = await membershipOf(client, caller, roomId, true);
      refuseFixedType(m, 'have its roles changed');
      requireOwner(m, 'change member roles');
      const target = await memberRole(client, roomId, accountId);
      if (!target) throw chatErrors.notFound('Member', 'member_not_found');
      if (target.role === role) return;
      if (target.role === 'OWNER' && (await otherOwners(client, roomId, accountId)) === 0) {
        throw lastOwner('The last owner cannot be demoted; make another member OWNER first.');
      }
      await setMemberRole(client, roomId, accountId, role);
      await emit(
        client,
        'member.role_changed',
        // the service writes no other role
        { roomId, accountId, role, previousRole: target.role as RoomRole, changedBy: caller.accountId },
        roomAudience(roomId),
      );
    });
    return this.member(caller, roomId, accountId);
  }

  /**
   * The last owner of a room that still has other members is refused (409 last_owner); the last member leaving
   * deletes the room. PRIVATE, SELF and REMINDER rooms cannot be left (409 unsupported_room_type).
   */
  async leave(caller: Caller, roomId: string): Promise<{ roomId: string; status: 'left' | 'deleted' }> {
    const status = await inTransaction(this.deps.sql, async (client) => {
      const m = await membershipOf(client, caller, roomId, true);
      refuseFixedType(m, 'be left');
      const { others, other_owners: otherOwners } = await othersThan(client, roomId, caller.accountId);
      const now = this.deps.clock.now();
      if (others === 0) {
        await deleteRoomRows(client, roomId, caller.accountId, now);
        return 'deleted' as const;
      }
      if (m.role === 'OWNER' && otherOwners === 0) {
        throw lastOwner(
          `The last owner cannot leave a room that still has members; hand ownership on first (PATCH /api/v1/rooms/${roomId}/members/{accountId}/role with role OWNER).`,
        );
      }
      await deleteMember(client, roomId, caller.accountId);
      await countMembers(client, roomId, -1);
      const payload = { roomId, accountId: caller.accountId };
      // The remaining members hear it through the room; the leaver, no longer a member, is addressed directly.
      await emit(client, 'member.left', payload, roomAudience(roomId));
      await emit(client, 'member.left', payload, accountsAudience([caller.accountId]));
      return 'left' as const;
    });
    return { roomId, status };
  }

  /** Pending requests, oldest first (request ids are time-ordered), owner/admin only. */
  listJoinRequests(caller: Caller, roomId: string, query: PageQuery): Promise<Page<JoinRequestView>> {
    return listJoinRequests(this.deps, caller, roomId, query);
  }

  /** Owner/admin: the account becomes a MEMBER, provided it may still join (same checks as room creation). */
  async approve(caller: Caller, roomId: string, requestId: string): Promise<MemberView> {
    const accountId = await inTransaction(this.deps.sql, async (client) => {
      const m = await membershipOf(client, caller, roomId, true);
      requireManager(m, 'approve join requests');
      const request = await pendingRequest(client, roomId, requestId);
      await this.rooms.checkAddable(caller, [request.account_id], m.type === 'CROSS_MODULE', 'path.requestId', {
        single: true,
        db: client,
      });
      const now = this.deps.clock.now();
      await resolveRequest(client, requestId, 'APPROVED', now, caller.accountId);
      const added = await insertMembers(client, roomId, [{ accountId: request.account_id, role: 'MEMBER' }], now);
      if (added.length > 0) {
        await countMembers(client, roomId, 1);
        await emit(client, 'member.added', { roomId, accountIds: added, role: 'MEMBER', addedBy: caller.accountId }, roomAudience(roomId));
      }
      await emit(
        client,
        'join_request.approved',
        { roomId, requestId, accountId: request.account_id, resolvedBy: caller.accountId },
        accountsAudience(await requestAudience(client, roomId, request.requested_by)),
      );
      return request.account_id;
    });
    return this.member(caller, roomId, accountId);
  }

  /** Owner/admin: the request is resolved and nobody is added. */
  async reject(caller: Caller, roomId: string, requestId: string): Promise<{ requestId: string; status: 'REJECTED' }> {
    await inTransaction(this.deps.sql, async (client) => {
      requireManager(await membershipOf(client, caller, roomId, true), 'reject join requests');
      const request = await pendingRequest(client, roomId, requestId);
      await resolveRequest(client, requestId, 'REJECTED', this.deps.clock.now(), caller.accountId);
      await emit(
        client,
        'join_request.rejected',
        { roomId, requestId, accountId: request.account_id, resolvedBy: caller.accountId },
        accountsAudience(await requestAudience(client, roomId, request.requested_by)),
      );
    });
    return { requestId, status: 'REJECTED' };
  }

  private async member(caller: Caller, roomId: string, accountId: string): Promise<MemberView> {
    const row = await memberOf(this.deps.sql, roomId, accountId);
    if (!row) throw chatErrors.notFound('Member', 'member_not_found');
    return memberView(row, caller.accountId, this.deps.clock.now());
  }
}
