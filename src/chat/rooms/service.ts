import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { AppError } from '../../platform/http/app-error.js';
import { newId, isUuid } from '../../platform/ids.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { chatErrors } from '../errors.js';
import { roomSelect, roomView, type AddMemberPolicy, type RoomRole, type RoomRow, type RoomType, type RoomView } from './views.js';

export interface CreateRoomInput {
  type: 'GROUP' | 'CHANNEL' | 'CROSS_MODULE';
  name: string;
  description?: string;
  addMemberPolicy?: AddMemberPolicy;
  memberIds?: string[];
}

export interface ListRoomsQuery {
  limit?: number;
  cursor?: string;
  standalone?: boolean;
  channelId?: string;
  archived?: boolean;
  q?: string;
  include?: 'members';
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

interface RoomCursor {
  at: string;
  id: string;
}

function parseRoomCursor(raw: string): RoomCursor {
  const c = decodeCursor(raw);
  if (!c || typeof c.a !== 'string' || typeof c.i !== 'string' || !isUuid(c.i) || Number.isNaN(Date.parse(c.a))) {
    throw chatErrors.invalidCursor('query.cursor');
  }
  return { at: c.a, id: c.i };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

export class RoomService {
  constructor(private readonly deps: ChatDeps) {}

  async list(caller: Caller, query: ListRoomsQuery): Promise<Page<RoomView>> {
    const limit = query.limit ?? 50;
    const params: unknown[] = [caller.accountId, query.archived === true];
    let sql = `${roomSelect} and m.archived = $2`;
    if (query.q !== undefined) {
      if (query.archived !== true) throw chatErrors.invalid('query.q', 'is only accepted together with archived=true');
      params.push(`%${escapeLike(query.q)}%`);
      sql += ` and r.type in ('GROUP', 'CHANNEL') and r.name ilike $${params.length}`;
    }
    if (query.standalone === true) sql += ' and r.channel_id is null';
    if (query.channelId !== undefined) {
      params.push(query.channelId);
      sql += ` and r.channel_id = $${params.length}`;
    }
    if (query.cursor !== undefined) {
      const c = parseRoomCursor(query.cursor);
      params.push(c.at, c.id);
      sql += ` and (r.last_activity_at, r.id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`;
    }
    params.push(limit + 1);
    sql += ` order by r.last_activity_at desc, r.id desc limit $${params.length}`;
    const { rows } = await this.deps.sql.query<RoomRow>(sql, params);
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const items = page.map(roomView);
    if (query.include === 'members') await this.inlineMembers(items);
    const last = page[page.length - 1];
    return {
      items,
      hasMore,
      nextCursor: hasMore && last ? encodeCursor({ a: last.last_activity_at.toISOString(), i: last.id }) : null,
    };
  }

  /** Inlines members of rooms within the configured maximum; larger rooms get membersTruncated. */
  private async inlineMembers(rooms: RoomView[]): Promise<void> {
    const max = this.deps.config.inlineMembersMax;
    const small = rooms.filter((r) => r.memberCount <= max);
    for (const room of rooms) {
      room.members = [];
      room.membersTruncated = room.memberCount > max;
    }
    if (small.length === 0) return;
    const { rows } = await this.deps.sql.query<{ room_id: string; account_id: string; role: RoomRole; joined_at: Date }>(
      'select room_id, account_id, role, joined_at from room_members where room_id = any($1::uuid[]) order by joined_at, account_id',
      [small.map((r) => r.id)],
    );
    const byRoom = new Map(small.map((r) => [r.id, r]));
    for (const row of rows) {
      byRoom.get(row.room_id)?.members?.push({ accountId: row.account_id, role: row.role, joinedAt: row.joined_at.toISOString() });
    }
  }

  async get(caller: Caller, roomId: string): Promise<RoomView> {
    const { rows } = await this.deps.sql.query<RoomRow>(`${roomSelect} and r.id = $2`, [caller.accountId, roomId]);
    const row = rows[0];
    // A room the caller is not a member of is indistinguishable from one that does not exist.
    if (!row) throw chatErrors.notFound('Room', 'room_not_found');
    return roomView(row);
  }

  async create(caller: Caller, input: CreateRoomInput): Promise<RoomView> {
    const requested = input.memberIds ?? [];
    const memberIds = [...new Set(requested)].filter((id) => id !== caller.accountId);
    await this.checkAddable(caller, memberIds, input.type === 'CROSS_MODULE', 'body.memberIds', false, requested);
    const roomId = newId();
    const now = this.deps.clock.now();
    await inTransaction(this.deps.sql, async (client) => {
      await client.query(
        `insert into rooms (id, type, name, description, add_member_policy, created_by, member_count, created_at, last_activity_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
        [roomId, input.type, input.name, input.description ?? null, input.addMemberPolicy ?? 'ALL_MEMBERS', caller.accountId, memberIds.length + 1, now],
      );
      await insertMembers(client, roomId, [{ accountId: caller.accountId, role: 'OWNER' }, ...memberIds.map((id) => ({ accountId: id, role: 'MEMBER' as const }))], now);
      await client.query(`insert into outbox (topic, payload) values ('room.created', $1)`, [
        JSON.stringify({ roomId, type: input.type, memberIds: [caller.accountId, ...memberIds] }),
      ]);
    });
    this.deps.queues.requestOutboxDrain();
    return this.get(caller, roomId);
  }

  async getOrCreateSelf(caller: Caller): Promise<RoomView> {
    return this.getOrCreateSingleton(caller, 'SELF', `self:${caller.accountId}`, [{ accountId: caller.accountId, role: 'OWNER' }]);
  }

  async getOrCreatePrivate(caller: Caller, otherId: string): Promise<RoomView> {
    if (otherId === caller.accountId) throw chatErrors.invalid('body.accountId', 'is the caller; use POST /api/v1/rooms/self for saved messages');
    await this.checkAddable(caller, [otherId], false, 'body.accountId', true);
    const [a, b] = [caller.accountId, otherId].sort();
    return this.getOrCreateSingleton(caller, 'PRIVATE', `private:${a}:${b}`, [
      { accountId: caller.accountId, role: 'MEMBER' },
      { accountId: otherId, role: 'MEMBER' },
    ]);
  }

  private async getOrCreateSingleton(caller: Caller, type: RoomType, key: string, members: Array<{ accountId: string; role: RoomRole }>): Promise<RoomView> {
    const now = this.deps.clock.now();
    const roomId = newId();
    const createdNow = await inTransaction(this.deps.sql, async (client) => {
      // Concurrent callers race on the unique singleton key; the loser finds the winner's room below.
      const inserted = await client.query(
        `insert into rooms (id, type, name, add_member_policy, created_by, member_count, created_at, last_activity_at, singleton_key)
         values ($1, $2, null, 'ADMIN_ONLY', $3, $4, $5, $5, $6) on conflict (singleton_key) do nothing returning id`,
        [roomId, type, caller.accountId, members.length, now, key],
      );
      if (inserted.rowCount === 0) return false;
      await insertMembers(client, roomId, members, now);
      await client.query(`insert into outbox (topic, payload) values ('room.created', $1)`, [
        JSON.stringify({ roomId, type, memberIds: members.map((m) => m.accountId) }),
      ]);
      return true;
    });
    if (createdNow) this.deps.queues.requestOutboxDrain();
    const { rows } = await this.deps.sql.query<RoomRow>(`${roomSelect} and r.singleton_key = $2`, [caller.accountId, key]);
    const row = rows[0];
    if (!row) throw chatErrors.notFound('Room', 'room_not_found');
    return roomView(row);
  }

  /**
   * Accounts a caller may put in a room: registered, active, of the caller's customer, and (unless the room
   * crosses modules) of the caller's module. Anything else reads as "no such account" to avoid leaking ids.
   */
  private async checkAddable(caller: Caller, ids: string[], crossModule: boolean, location: string, single = false, requested: string[] = ids): Promise<void> {
    if (ids.length === 0) return;
    const { rows } = await this.deps.sql.query<{ id: string }>(
      `select id from accounts where id = any($1::uuid[]) and status = 'ACTIVE' and customer_account_id = $2 ${crossModule ? '' : 'and module_code = $3'}`,
      crossModule ? [ids, caller.customerAccountId] : [ids, caller.customerAccountId, caller.moduleCode],
    );
    const found = new Set(rows.map((r) => r.id));
    // Indices refer to the list as the client sent it (before dropping duplicates and the caller's own id), so
    // that body.memberIds.N points at the offending entry.
    const checked = new Set(ids);
    const missing = requested.map((id, i) => ({ id, i })).filter(({ id }) => checked.has(id) && !found.has(id));
    if (missing.length > 0) {
      const details = missing.map(({ i }) => ({ location: single ? location : `${location}.${i}`, message: 'names no active account that can join this room' }));
      throw new AppError(400, 'validation_failed', `The request is invalid: ${details.map((d) => `${d.location} ${d.message}`).join('; ')}`, details);
    }
  }
}

async function insertMembers(client: SqlClient, roomId: string, members: Array<{ accountId: string; role: RoomRole }>, at: Date): Promise<void> {
  await client.query(
    `insert into room_members (room_id, account_id, role, joined_at)
     select $1, unnest($2::uuid[]), unnest($3::text[]), $4 on conflict do nothing`,
    [roomId, members.map((m) => m.accountId), members.map((m) => m.role), at],
  );
}
