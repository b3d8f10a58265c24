import { readPool } from '../../platform/db/read-router.js';
import { inTransaction, type SqlClient, type SqlPool } from '../../platform/db/sql.js';
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { chatError, chatErrors } from '../errors.js';
import { isCursorInstant, isCursorUuid } from './cursors.js';
import { channelRoomMembers } from '../channels/rooms.js';
import { acceptedContact } from '../contacts/access.js';
import { deleteRoomRows } from './deletion.js';
import { emit, roomAudience } from '../events/emit.js';
import { membershipOf, refuseFixedType, requireManager, requireOwner, roomNotFound, type Queryable } from './membership.js';
import { ensureReminderBot } from './reminder-bot.js';
import { roomQuery, roomView, type AddMemberPolicy, type RoomRole, type RoomRow, type RoomType, type RoomView } from './views.js';
import { prepared } from '../../platform/db/prepared.js';

export interface CreateRoomInput {
  type: 'GROUP' | 'CHANNEL' | 'CROSS_MODULE';
  name: string;
  description?: string;
  addMemberPolicy?: AddMemberPolicy;
  memberIds?: string[];
  /** The room belongs to this channel and takes its members (src/chat/channels/rooms.ts). */
  channelId?: string;
}

export interface UpdateRoomInput {
  name?: string;
  description?: string | null;
  addMemberPolicy?: AddMemberPolicy;
}

export interface ListRoomsQuery {
  limit?: number;
  cursor?: string;
  standalone?: boolean;
  channelId?: string;
  archived?: boolean;
  q?: string;
  include?: 'members';
  labelId?: string;
}

export interface AddableOptions {
  /** One id at a fixed location (no index suffix). */
  single?: boolean;
  /** The list as the client sent it, for the indices in error details. */
  requested?: string[];
  /** The transaction to read in, when the caller holds one. */
  db?: Queryable;
}

export interface Page<T> {
  items: T[];
  hasMore: boolean;
  nextCursor: string | null;
}

/** Room list keyset: the caller's pinned flag, last activity, room id (all descending). */
interface RoomCursor {
  pinned: boolean;
  at: string;
  id: string;
}

/** The room list of one caller under one set of filters: a cursor opens only the list it came from. */
function roomList(accountId: string, query: ListRoomsQuery): string {
  const q = query.archived === true ? (query.q ?? null) : null; // q filters archived rooms only; elsewhere it is ignored
  return `rooms:${accountId}:${JSON.stringify([query.archived === true, q, query.standalone === true, query.channelId ?? null, query.labelId ?? null])}`;
}

function parseRoomCursor(raw: string, list: string): RoomCursor {
  const c = decodeCursor(raw, list);
  if (!c || (c.p !== 0 && c.p !== 1) || !isCursorInstant(c.a) || !isCursorUuid(c.i)) throw chatErrors.invalidCursor('query.cursor');
  return { pinned: c.p === 1, at: c.a, id: c.i };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

/** Names are stored trimmed; one made only of white space is no name. */
export function roomName(raw: string, location: string): string {
  const name = raw.trim();
  if (name.length === 0) throw chatErrors.invalid(location, 'must contain a character other than white space');
  return name;
}

const listOrder = 'order by p.pinned desc, p.last_activity_at desc, p.id desc';

export class RoomService {
  constructor(private readonly deps: ChatDeps) {}

  /** One statement per page: the page of rooms, then the unread count and last message of those rooms only. */
  async list(caller: Caller, query: ListRoomsQuery): Promise<Page<RoomView>> {
    const limit = query.limit ?? 50;
    const params: unknown[] = [caller.accountId, query.archived === true];
    let filter = 'and m.archived = $2';
    if (query.q !== undefined && query.archived === true) {
      params.push(`%${escapeLike(query.q)}%`);
      filter += ` and r.type in ('GROUP', 'CHANNEL') and r.name ilike $${params.length}`;
    }
    if (query.standalone === true) filter += ' and r.channel_id is null';
    if (query.channelId !== undefined) {
      params.push(query.channelId);
      filter += ` and r.channel_id = $${params.length}`;
    }
    if (query.labelId !== undefined) {
      // The caller's own label only: anyone else's id matches no room (src/chat/labels).
      params.push(query.labelId);
      filter += ` and exists (select 1 from room_labels rl where rl.label_id = $${params.length} and rl.room_id = r.id and rl.account_id = $1)`;
    }
    if (query.cursor !== undefined) {
      const c = parseRoomCursor(query.cursor, roomList(caller.accountId, query));
      params.push(c.pinned, c.at, c.id);
      const n = params.length;
      filter += ` and (m.pinned, r.last_activity_at, r.id) < ($${n - 2}::boolean, $${n - 1}::timestamptz, $${n}::uuid)`;
    }
    params.push(limit + 1);
    const page = `order by m.pinned desc, r.last_activity_at desc, r.id desc limit $${params.length}`;
    // Filters add clauses from a fixed set, never values: a bounded set of texts to prepare.
    const db = await readPool(this.deps);
    const { rows } = await db.query<RoomRow>(prepared(`${roomQuery(filter, page)} ${listOrder}`, params));
    const hasMore = rows.length > limit;
    const pageRows = rows.slice(0, limit);
    const now = this.deps.clock.now();
    const items = pageRows.map((row) => roomView(row, now));
    if (query.include === 'members') await this.inlineMembers(db, items);
    const last = pageRows[pageRows.length - 1];
    return {
      items,
      hasMore,
      nextCursor:
        hasMore && last
          ? encodeCursor({ p: last.pinned ? 1 : 0, a: last.last_activity_at.toISOString(), i: last.id }, roomList(caller.accountId, query))
          : null,
    };
  }

  /** Inlines members of rooms within the configured maximum; larger rooms get membersTruncated. */
  private async inlineMembers(db: SqlPool, rooms: RoomView[]): Promise<void> {
    const max = this.deps.config.inlineMembersMax;
    const small = rooms.filter((r) => r.memberCount <= max);
    for (const room of rooms) {
      room.members = [];
      room.membersTruncated = room.memberCount > max;
    }
    if (small.length === 0) return;
    const { rows } = await db.query<{ room_id: string; account_id: string; role: RoomRole; joined_at: Date }>(
      'select room_id, account_id, role, joined_at from room_members where room_id = any($1::uuid[]) order by joined_at, account_id',
      [small.map((r) => r.id)],
    );
    const byRoom = new Map(small.map((r) => [r.id, r]));
    for (const row of rows) {
      byRoom.get(row.room_id)?.members?.push({ accountId: row.account_id, role: row.role, joinedAt: row.joined_at.toISOString() });
    }
  }

  async get(caller: Caller, roomId: string): Promise<RoomView> {
    const { rows } = await (await readPool(this.deps)).query<RoomRow>(roomQuery('and r.id = $2'), [caller.accountId, roomId]);
    const row = rows[0];
    // A room the caller is not a member of is indistinguishable from one that does not exist.
    if (!row) throw roomNotFound();
    return roomView(row, this.deps.clock.now());
  }

  async create(caller: Caller, input: CreateRoomInput): Promise<RoomView> {
    const name = roomName(input.name, 'body.name');
    const requested = (input.memberIds ?? []).map((id) => id.toLowerCase());
    const memberIds = [...new Set(requested)].filter((id) => id !== caller.accountId);
    const channelId = input.channelId?.toLowerCase() ?? null;
    if (channelId !== null) {
      if (input.memberIds !== undefined)
        throw chatErrors.invalid('body.memberIds', 'cannot be combined with channelId: a channel room takes the members of the channel');
      if (input.type === 'CROSS_MODULE') throw chatErrors.invalid('body.type', 'must be GROUP or CHANNEL for a room of a channel');
    }
    await this.checkAddable(caller, memberIds, input.type === 'CROSS_MODULE', 'body.memberIds', { requested });
    const roomId = newId();
    const now = this.deps.clock.now();
    await inTransaction(this.deps.sql, async (client) => {
      if (channelId !== null) memberIds.push(...(await channelRoomMembers(client, caller, channelId)));
      await client.query(
        `insert into rooms (id, type, name, description, add_member_policy, created_by, member_count, created_at, last_activity_at, channel_id)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9)`,
        [
          roomId,
          input.type,
          name,
          input.description ?? null,
          input.addMemberPolicy ?? 'ALL_MEMBERS',
          caller.accountId,
          memberIds.length + 1,
          now,
          channelId,
        ],
      );
      await insertMembers(
        client,
        roomId,
        [{ accountId: caller.accountId, role: 'OWNER' }, ...memberIds.map((id) => ({ accountId: id, role: 'MEMBER' as const }))],
        now,
      );
      await emit(client, 'room.created', { roomId, type: input.type, memberIds: [caller.accountId, ...memberIds] }, roomAudience(roomId));
    });
    this.deps.queues.requestOutboxDrain();
    return this.get(caller, roomId);
  }

  /** Owner/admin. Only fields that differ are written; a call that changes nothing emits nothing. */
  async update(caller: Caller, roomId: string, input: UpdateRoomInput): Promise<RoomView> {
    const name = input.name === undefined ? undefined : roomName(input.name, 'body.name');
    const changed = await inTransaction(this.deps.sql, async (client) => {
      const membership = await membershipOf(client, caller, roomId, true);
      refuseFixedType(membership, 'be renamed or reconfigured');
      requireManager(membership, 'change its name, description or add-member policy');
      const { rows } = await client.query<{ name: string | null; description: string | null; add_member_policy: AddMemberPolicy }>(
        'select name, description, add_member_policy from rooms where id = $1',
        [roomId],
      );
      const current = rows[0]!;
      const changes: Record<string, unknown> = {};
      if (name !== undefined && name !== current.name) changes.name = name;
      if (input.description !== undefined && input.description !== current.description) changes.description = input.description;
      if (input.addMemberPolicy !== undefined && input.addMemberPolicy !== current.add_member_policy)
        changes.addMemberPolicy = input.addMemberPolicy;
      if (Object.keys(changes).length === 0) return false;
      await client.query(`update rooms set name = $2, description = $3, add_member_policy = $4 where id = $1`, [
        roomId,
        changes.name ?? current.name,
        'description' in changes ? changes.description : current.description,
        changes.addMemberPolicy ?? current.add_member_policy,
      ]);
      await emit(client, 'room.updated', { roomId, updatedBy: caller.accountId, changes }, roomAudience(roomId));
      return true;
    });
    if (changed) this.deps.queues.requestOutboxDrain();
    return this.get(caller, roomId);
  }

  /** Owner only; from the commit on the room is 404 to everyone and in nobody's list. */
  async delete(caller: Caller, roomId: string): Promise<{ roomId: string; status: 'deleted' }> {
    await inTransaction(this.deps.sql, async (client) => {
      const membership = await membershipOf(client, caller, roomId, true);
      refuseFixedType(membership, 'be deleted');
      requireOwner(membership, 'delete it');
      await deleteRoomRows(client, roomId, caller.accountId, this.deps.clock.now());
    });
    this.deps.queues.requestOutboxDrain();
    return { roomId, status: 'deleted' };
  }

  async getOrCreateSelf(caller: Caller): Promise<RoomView> {
    return this.getOrCreateSingleton(caller, 'SELF', `self:${caller.accountId}`, [{ accountId: caller.accountId, role: 'OWNER' }]);
  }

  async getOrCreatePrivate(caller: Caller, accountId: string): Promise<RoomView> {
    const otherId = accountId.toLowerCase();
    if (otherId === caller.accountId)
      throw chatErrors.invalid('body.accountId', 'is the caller; use POST /api/v1/rooms/self for saved messages');
    // Accounts of the caller's module and customer, or (across tenants) an accepted contact.
    if (!(await acceptedContact(this.deps.sql, caller.accountId, otherId)))
      await this.checkAddable(caller, [otherId], false, 'body.accountId', { single: true });
    const [a, b] = [caller.accountId, otherId].sort();
    return this.getOrCreateSingleton(caller, 'PRIVATE', `private:${a}:${b}`, [
      { accountId: caller.accountId, role: 'MEMBER' },
      { accountId: otherId, role: 'MEMBER' },
    ]);
  }

  /** The caller's direct room with the reminder bot of its module and customer (docs/adr/0012-get-or-create-rooms.md). */
  async getOrCreateReminder(caller: Caller): Promise<RoomView> {
    const botId = await ensureReminderBot(this.deps.sql, caller);
    return this.getOrCreateSingleton(caller, 'REMINDER', `reminder:${caller.accountId}`, [
      { accountId: caller.accountId, role: 'MEMBER' },
      { accountId: botId, role: 'MEMBER' },
    ]);
  }

  private async getOrCreateSingleton(
    caller: Caller,
    type: RoomType,
    key: string,
    members: Array<{ accountId: string; role: RoomRole }>,
  ): Promise<RoomView> {
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
      await emit(client, 'room.created', { roomId, type, memberIds: members.map((m) => m.accountId) }, roomAudience(roomId));
      return true;
    });
    if (createdNow) this.deps.queues.requestOutboxDrain();
    const { rows } = await this.deps.sql.query<RoomRow>(roomQuery('and r.singleton_key = $2'), [caller.accountId, key]);
    const row = rows[0];
    if (!row) throw roomNotFound();
    return roomView(row, this.deps.clock.now());
  }

  /**
   * Accounts a caller may put in a room: registered, active, of the caller's customer, and (unless the room
   * crosses modules) of the caller's module. Anything else reads as "no such account" to avoid leaking ids.
   * Room creation, member additions and join-request approval all go through it.
   */
  async checkAddable(caller: Caller, ids: string[], crossModule: boolean, location: string, options: AddableOptions = {}): Promise<void> {
    const { single = false, requested = ids, db = this.deps.sql } = options;
    if (ids.length === 0) return;
    const { rows } = await db.query<{ id: string }>(
      `select id from accounts where id = any($1::uuid[]) and status = 'ACTIVE' and customer_account_id = $2 ${crossModule ? '' : 'and module_code = $3'}`,
      crossModule ? [ids, caller.customerAccountId] : [ids, caller.customerAccountId, caller.moduleCode],
    );
    const found = new Set(rows.map((r) => r.id));
    // Indices refer to the list as the client sent it (before dropping duplicates and the caller's own id), so
    // that body.memberIds.N points at the offending entry.
    const checked = new Set(ids);
    const missing = requested.map((id, i) => ({ id, i })).filter(({ id }) => checked.has(id) && !found.has(id));
    if (missing.length > 0) {
      const details = missing.map(({ i }) => ({
        location: single ? location : `${location}.${i}`,
        message: 'names no active account that can join this room',
      }));
      throw chatError(
        400,
        'validation_failed',
        `The request is invalid: ${details.map((d) => `${d.location} ${d.message}`).join('; ')}`,
        details,
      );
    }
  }
}

/**
 * New members start with the room's history read (read mark at the room's current sequence number): joining an old
 * room does not make its whole past unread. Callers adding to an existing room hold its row lock, so no send
 * slips between reading last_seq and the insert.
 */
export async function insertMembers(
  client: SqlClient,
  roomId: string,
  members: Array<{ accountId: string; role: RoomRole }>,
  at: Date,
): Promise<string[]> {
  const { rows } = await client.query<{ account_id: string }>(
    `insert into room_members (room_id, account_id, role, joined_at, last_read_seq)
     select $1, unnest($2::uuid[]), unnest($3::text[]), $4, coalesce((select last_seq from rooms where id = $1), 0)
     on conflict do nothing returning account_id`,
    [roomId, members.map((m) => m.accountId), members.map((m) => m.role), at],
  );
  return rows.map((r) => r.account_id);
}
