// Members of a room: the member list, additions under the room's policy, join requests, role changes and leaving.
// Every change locks the room row first, so concurrent changes of one room (two owners leaving at once) are
// serialised and the last-owner rule holds.
import { sql } from 'kysely';
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, rows } from '../../platform/db/typed.js';
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { isCursorInstant, isCursorUuid } from '../rooms/cursors.js';
import { deleteRoomRows } from '../rooms/deletion.js';
import { accountsAudience, emit, roomAudience } from '../events/emit.js';
import { isManager, membershipOf, refuseFixedType, requireManager, requireOwner } from '../base/membership.js';
import type { Page } from '../base/paging.js';
import { insertMembers, type RoomService } from '../rooms/service.js';
import type { RoomRole } from '../base/room-views.js';
import { chatDb } from '../base/tables.js';
import {
  joinRequestQuery,
  joinRequestView,
  memberQuery,
  memberView,
  type JoinRequestView,
  type MemberView,
} from '../rooms/member-views.js';

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

const lastOwner = (message: string) => chatErrors.conflict('last_owner', message);
const requestNotFound = () => chatErrors.notFound('Join request', 'join_request_not_found');

export class MemberService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly rooms: RoomService,
  ) {}

  /** Joining order, keyset on (joined_at, account_id). */
  async list(caller: Caller, roomId: string, query: PageQuery): Promise<Page<MemberView>> {
    const list = `members:${roomId}`;
    const limit = query.limit ?? 100;
    let select = memberQuery(roomId);
    if (query.cursor !== undefined) {
      const c = decodeCursor(query.cursor, list);
      if (!c || !isCursorInstant(c.a) || !isCursorUuid(c.i)) throw chatErrors.invalidCursor('query.cursor');
      const [at, id] = [c.a, c.i];
      select = select.where((eb) =>
        eb(eb.refTuple('m.joined_at', 'm.account_id'), '>', eb.tuple(sql<Date>`${at}::timestamptz`, sql<string>`${id}::uuid`)),
      );
    }
    await membershipOf(this.deps.sql, caller, roomId);
    const found = await rows(
      this.deps.sql,
      select
        .orderBy('m.joined_at')
        .orderBy('m.account_id')
        .limit(limit + 1),
    );
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
    const present = await rows(this.deps.sql, this.membersAmong(roomId, ids));
    const presentIds = new Set(present.map((r) => r.account_id));
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
      return direct ? this.addDirectly(client, caller, roomId, ids) : this.request(client, caller, roomId, ids);
    });
    if (result.added.length > 0 || result.pending.length > result.alreadyPending.length) this.deps.queues.requestOutboxDrain();
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
      await affected(
        client,
        chatDb
          .updateTable('join_requests')
          .set({ status: 'APPROVED', resolved_at: now, resolved_by: caller.accountId })
          .where('room_id', '=', roomId)
          .where('account_id', '=', sql<string>`any(${added}::uuid[])`)
          .where('status', '=', 'PENDING'),
      );
      await emit(client, 'member.added', { roomId, accountIds: added, role: 'MEMBER', addedBy: caller.accountId }, roomAudience(roomId));
    }
    return { status: 'ADDED', added, pending: [], alreadyPending: [], alreadyMembers: ids.filter((id) => !inserted.has(id)) };
  }

  private async request(client: SqlClient, caller: Caller, roomId: string, ids: string[]): Promise<AddMembersResult> {
    const present = await rows(client, this.membersAmong(roomId, ids));
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
            sql<Date>`${this.deps.clock.now()}::timestamptz`.as('created_at'),
          ]),
        )
        .onConflict((oc) => oc.columns(['room_id', 'account_id']).where('status', '=', sql.lit('PENDING')).doNothing())
        .returning(['id', 'account_id']),
    );
    if (made.length > 0) {
      const audience = accountsAudience(await this.requestAudience(client, roomId, caller.accountId));
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

  /** Who hears of a join request: the room's owners and admins, and the member who asked. */
  private async requestAudience(client: SqlClient, roomId: string, requestedBy: string): Promise<string[]> {
    const managers = await rows(
      client,
      chatDb.selectFrom('room_members').select('account_id').where('room_id', '=', roomId).where('role', 'in', ['OWNER', 'ADMIN']),
    );
    return [...new Set([...managers.map((r) => r.account_id), requestedBy])];
  }

  /** Owner only. The last owner cannot be demoted: another member must be made OWNER first. */
  async changeRole(caller: Caller, roomId: string, accountId: string, role: RoomRole): Promise<MemberView> {
    const changed = await inTransaction(this.deps.sql, async (client) => {
      const m = await membershipOf(client, caller, roomId, true);
      refuseFixedType(m, 'have its roles changed');
      requireOwner(m, 'change member roles');
      const target = await firstRow(
        client,
        chatDb.selectFrom('room_members').select('role').where('room_id', '=', roomId).where('account_id', '=', accountId),
      );
      if (!target) throw chatErrors.notFound('Member', 'member_not_found');
      if (target.role === role) return false;
      if (target.role === 'OWNER' && (await this.otherOwners(client, roomId, accountId)) === 0) {
        throw lastOwner('The last owner cannot be demoted; make another member OWNER first.');
      }
      await affected(
        client,
        chatDb.updateTable('room_members').set({ role }).where('room_id', '=', roomId).where('account_id', '=', accountId),
      );
      await emit(
        client,
        'member.role_changed',
        // the service writes no other role
        { roomId, accountId, role, previousRole: target.role as RoomRole, changedBy: caller.accountId },
        roomAudience(roomId),
      );
      return true;
    });
    if (changed) this.deps.queues.requestOutboxDrain();
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
      const { others, other_owners: otherOwners } = (await firstRow(
        client,
        chatDb
          .selectFrom('room_members')
          .select([sql<number>`count(*)::int`.as('others'), sql<number>`(count(*) filter (where role = 'OWNER'))::int`.as('other_owners')])
          .where('room_id', '=', roomId)
          .where('account_id', '<>', caller.accountId),
      ))!;
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
      await affected(client, chatDb.deleteFrom('room_members').where('room_id', '=', roomId).where('account_id', '=', caller.accountId));
      await countMembers(client, roomId, -1);
      const payload = { roomId, accountId: caller.accountId };
      // The remaining members hear it through the room; the leaver, no longer a member, is addressed directly.
      await emit(client, 'member.left', payload, roomAudience(roomId));
      await emit(client, 'member.left', payload, accountsAudience([caller.accountId]));
      return 'left' as const;
    });
    this.deps.queues.requestOutboxDrain();
    return { roomId, status };
  }

  /** Pending requests, oldest first (request ids are time-ordered), owner/admin only. */
  async listJoinRequests(caller: Caller, roomId: string, query: PageQuery): Promise<Page<JoinRequestView>> {
    const list = `join-requests:${roomId}`;
    const limit = query.limit ?? 50;
    let select = joinRequestQuery(roomId).where('j.status', '=', 'PENDING');
    if (query.cursor !== undefined) {
      const c = decodeCursor(query.cursor, list);
      if (!c || !isCursorUuid(c.i)) throw chatErrors.invalidCursor('query.cursor');
      select = select.where('j.id', '>', sql<string>`${c.i}::uuid`);
    }
    requireManager(await membershipOf(this.deps.sql, caller, roomId), 'see its join requests');
    const found = await rows(this.deps.sql, select.orderBy('j.id').limit(limit + 1));
    const hasMore = found.length > limit;
    const page = found.slice(0, limit);
    const last = page[page.length - 1];
    return { items: page.map(joinRequestView), hasMore, nextCursor: hasMore && last ? encodeCursor({ i: last.id }, list) : null };
  }

  /** Owner/admin: the account becomes a MEMBER, provided it may still join (same checks as room creation). */
  async approve(caller: Caller, roomId: string, requestId: string): Promise<MemberView> {
    const accountId = await inTransaction(this.deps.sql, async (client) => {
      const m = await membershipOf(client, caller, roomId, true);
      requireManager(m, 'approve join requests');
      const request = await this.pendingRequest(client, roomId, requestId);
      await this.rooms.checkAddable(caller, [request.account_id], m.type === 'CROSS_MODULE', 'path.requestId', {
        single: true,
        db: client,
      });
      const now = this.deps.clock.now();
      await this.resolve(client, requestId, 'APPROVED', now, caller.accountId);
      const added = await insertMembers(client, roomId, [{ accountId: request.account_id, role: 'MEMBER' }], now);
      if (added.length > 0) {
        await countMembers(client, roomId, 1);
        await emit(client, 'member.added', { roomId, accountIds: added, role: 'MEMBER', addedBy: caller.accountId }, roomAudience(roomId));
      }
      await emit(
        client,
        'join_request.approved',
        { roomId, requestId, accountId: request.account_id, resolvedBy: caller.accountId },
        accountsAudience(await this.requestAudience(client, roomId, request.requested_by)),
      );
      return request.account_id;
    });
    this.deps.queues.requestOutboxDrain();
    return this.member(caller, roomId, accountId);
  }

  /** Owner/admin: the request is resolved and nobody is added. */
  async reject(caller: Caller, roomId: string, requestId: string): Promise<{ requestId: string; status: 'REJECTED' }> {
    await inTransaction(this.deps.sql, async (client) => {
      requireManager(await membershipOf(client, caller, roomId, true), 'reject join requests');
      const request = await this.pendingRequest(client, roomId, requestId);
      await this.resolve(client, requestId, 'REJECTED', this.deps.clock.now(), caller.accountId);
      await emit(
        client,
        'join_request.rejected',
        { roomId, requestId, accountId: request.account_id, resolvedBy: caller.accountId },
        accountsAudience(await this.requestAudience(client, roomId, request.requested_by)),
      );
    });
    this.deps.queues.requestOutboxDrain();
    return { requestId, status: 'REJECTED' };
  }

  private async pendingRequest(
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

  private async otherOwners(client: SqlClient, roomId: string, accountId: string): Promise<number> {
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
  private async resolve(client: SqlClient, requestId: string, status: 'APPROVED' | 'REJECTED', at: Date, by: string): Promise<void> {
    await affected(
      client,
      chatDb.updateTable('join_requests').set({ status, resolved_at: at, resolved_by: by }).where('id', '=', requestId),
    );
  }

  /** Which of the accounts are members of the room. */
  private membersAmong(roomId: string, ids: string[]) {
    return chatDb
      .selectFrom('room_members')
      .select('account_id')
      .where('room_id', '=', roomId)
      .where('account_id', '=', sql<string>`any(${ids}::uuid[])`);
  }

  private async member(caller: Caller, roomId: string, accountId: string): Promise<MemberView> {
    const row = await firstRow(this.deps.sql, memberQuery(roomId).where('m.account_id', '=', accountId));
    if (!row) throw chatErrors.notFound('Member', 'member_not_found');
    return memberView(row, caller.accountId, this.deps.clock.now());
  }
}

/** Adds `delta` to the room's member counter. */
async function countMembers(client: SqlClient, roomId: string, delta: number): Promise<void> {
  await affected(
    client,
    chatDb
      .updateTable('rooms')
      .set((eb) => ({ member_count: eb('member_count', '+', delta) }))
      .where('id', '=', roomId),
  );
}
