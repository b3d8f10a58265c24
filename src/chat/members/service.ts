// Members of a room: the member list, additions under the room's policy, join requests, role changes and leaving.
// Every change locks the room row first, so concurrent changes of one room (two owners leaving at once) are
// serialised and the last-owner rule holds.
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { chatErrors } from '../errors.js';
import { isCursorInstant, isCursorUuid } from '../rooms/cursors.js';
import { deleteRoomRows } from '../rooms/deletion.js';
import { accountsAudience, emit, roomAudience } from '../events/emit.js';
import { isManager, membershipOf, refuseFixedType, requireManager, requireOwner } from '../rooms/membership.js';
import { insertMembers, type Page, type RoomService } from '../rooms/service.js';
import type { RoomRole } from '../rooms/views.js';
import {
  joinRequestSelect,
  joinRequestView,
  memberSelect,
  memberView,
  type JoinRequestRow,
  type JoinRequestView,
  type MemberRow,
  type MemberView,
} from './views.js';

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
    const params: unknown[] = [roomId];
    let sql = memberSelect;
    if (query.cursor !== undefined) {
      const c = decodeCursor(query.cursor, list);
      if (!c || !isCursorInstant(c.a) || !isCursorUuid(c.i)) throw chatErrors.invalidCursor('query.cursor');
      params.push(c.a, c.i);
      sql += ' and (m.joined_at, m.account_id) > ($2::timestamptz, $3::uuid)';
    }
    await membershipOf(this.deps.sql, caller, roomId);
    params.push(limit + 1);
    const { rows } = await this.deps.sql.query<MemberRow & { joined_at: Date }>(
      `${sql} order by m.joined_at, m.account_id limit $${params.length}`,
      params,
    );
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
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
    const { rows: present } = await this.deps.sql.query<{ account_id: string }>(
      'select account_id from room_members where room_id = $1 and account_id = any($2::uuid[])',
      [roomId, ids],
    );
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
      await client.query('update rooms set member_count = member_count + $2 where id = $1', [roomId, added.length]);
      // A person added directly no longer waits: their pending request is settled by this addition.
      await client.query(
        `update join_requests set status = 'APPROVED', resolved_at = $3, resolved_by = $4
          where room_id = $1 and account_id = any($2::uuid[]) and status = 'PENDING'`,
        [roomId, added, now, caller.accountId],
      );
      await emit(client, 'member.added', { roomId, accountIds: added, role: 'MEMBER', addedBy: caller.accountId }, roomAudience(roomId));
    }
    return { status: 'ADDED', added, pending: [], alreadyPending: [], alreadyMembers: ids.filter((id) => !inserted.has(id)) };
  }

  private async request(client: SqlClient, caller: Caller, roomId: string, ids: string[]): Promise<AddMembersResult> {
    const { rows: present } = await client.query<{ account_id: string }>(
      'select account_id from room_members where room_id = $1 and account_id = any($2::uuid[])',
      [roomId, ids],
    );
    const presentIds = new Set(present.map((r) => r.account_id));
    const outside = ids.filter((id) => !presentIds.has(id));
    // One pending request per person and room (unique partial index): a repeat keeps the first request.
    const { rows: made } = await client.query<{ id: string; account_id: string }>(
      `insert into join_requests (id, room_id, account_id, requested_by, status, created_at)
       select unnest($3::uuid[]), $1, unnest($2::uuid[]), $4, 'PENDING', $5
       on conflict (room_id, account_id) where status = 'PENDING' do nothing returning id, account_id`,
      [roomId, outside, outside.map(() => newId()), caller.accountId, this.deps.clock.now()],
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
    const { rows: pending } = await client.query<JoinRequestRow>(
      `${joinRequestSelect} and j.account_id = any($2::uuid[]) and j.status = 'PENDING' order by j.id`,
      [roomId, outside],
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
    const { rows } = await client.query<{ account_id: string }>(
      `select account_id from room_members where room_id = $1 and role in ('OWNER', 'ADMIN')`,
      [roomId],
    );
    return [...new Set([...rows.map((r) => r.account_id), requestedBy])];
  }

  /** Owner only. The last owner cannot be demoted: another member must be made OWNER first. */
  async changeRole(caller: Caller, roomId: string, accountId: string, role: RoomRole): Promise<MemberView> {
    const changed = await inTransaction(this.deps.sql, async (client) => {
      const m = await membershipOf(client, caller, roomId, true);
      refuseFixedType(m, 'have its roles changed');
      requireOwner(m, 'change member roles');
      const { rows } = await client.query<{ role: RoomRole }>('select role from room_members where room_id = $1 and account_id = $2', [
        roomId,
        accountId,
      ]);
      const target = rows[0];
      if (!target) throw chatErrors.notFound('Member', 'member_not_found');
      if (target.role === role) return false;
      if (target.role === 'OWNER' && (await this.otherOwners(client, roomId, accountId)) === 0) {
        throw lastOwner('The last owner cannot be demoted; make another member OWNER first.');
      }
      await client.query('update room_members set role = $3 where room_id = $1 and account_id = $2', [roomId, accountId, role]);
      await emit(
        client,
        'member.role_changed',
        { roomId, accountId, role, previousRole: target.role, changedBy: caller.accountId },
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
      const { rows } = await client.query<{ others: number; other_owners: number }>(
        `select count(*)::int as others, (count(*) filter (where role = 'OWNER'))::int as other_owners
           from room_members where room_id = $1 and account_id <> $2`,
        [roomId, caller.accountId],
      );
      const { others, other_owners: otherOwners } = rows[0]!;
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
      await client.query('delete from room_members where room_id = $1 and account_id = $2', [roomId, caller.accountId]);
      await client.query('update rooms set member_count = member_count - 1 where id = $1', [roomId]);
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
    const params: unknown[] = [roomId];
    let sql = `${joinRequestSelect} and j.status = 'PENDING'`;
    if (query.cursor !== undefined) {
      const c = decodeCursor(query.cursor, list);
      if (!c || !isCursorUuid(c.i)) throw chatErrors.invalidCursor('query.cursor');
      params.push(c.i);
      sql += ' and j.id > $2::uuid';
    }
    requireManager(await membershipOf(this.deps.sql, caller, roomId), 'see its join requests');
    params.push(limit + 1);
    const { rows } = await this.deps.sql.query<JoinRequestRow>(`${sql} order by j.id limit $${params.length}`, params);
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
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
      await client.query(`update join_requests set status = 'APPROVED', resolved_at = $2, resolved_by = $3 where id = $1`, [
        requestId,
        now,
        caller.accountId,
      ]);
      const added = await insertMembers(client, roomId, [{ accountId: request.account_id, role: 'MEMBER' }], now);
      if (added.length > 0) {
        await client.query('update rooms set member_count = member_count + 1 where id = $1', [roomId]);
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
      await client.query(`update join_requests set status = 'REJECTED', resolved_at = $2, resolved_by = $3 where id = $1`, [
        requestId,
        this.deps.clock.now(),
        caller.accountId,
      ]);
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
    const { rows } = await client.query<{ account_id: string; requested_by: string; status: string }>(
      'select account_id, requested_by, status from join_requests where id = $1 and room_id = $2 for update',
      [requestId, roomId],
    );
    const request = rows[0];
    if (!request) throw requestNotFound();
    if (request.status !== 'PENDING')
      throw chatErrors.conflict('join_request_resolved', `The join request was already resolved (${request.status}).`);
    return request;
  }

  private async otherOwners(client: SqlClient, roomId: string, accountId: string): Promise<number> {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from room_members where room_id = $1 and role = 'OWNER' and account_id <> $2`,
      [roomId, accountId],
    );
    return rows[0]!.n;
  }

  private async member(caller: Caller, roomId: string, accountId: string): Promise<MemberView> {
    const { rows } = await this.deps.sql.query<MemberRow>(`${memberSelect} and m.account_id = $2`, [roomId, accountId]);
    if (!rows[0]) throw chatErrors.notFound('Member', 'member_not_found');
    return memberView(rows[0], caller.accountId, this.deps.clock.now());
  }
}
