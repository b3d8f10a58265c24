import { readPool } from '../../platform/db/read-router.js';
import { inTransaction, type SqlClient, type SqlPool } from '../../platform/db/sql.js';
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { Page } from '../base/paging.js';
import type { ChatDeps } from '../base/deps.js';
import { chatError, chatErrors } from '../base/errors.js';
import { isCursorInstant, isCursorUuid } from './cursors.js';
import { channelRoomMembers } from './channel-members.js';
import { acceptedContact } from '../contacts/access.js';
import { deleteRoomRows } from './deletion.js';
import { emit, roomAudience } from '../events/emit.js';
import { membershipOf, refuseFixedType, requireManager, requireOwner, roomNotFound, type Queryable } from '../base/membership.js';
import { ensureReminderBot } from './reminder-bot.js';
import { roomView, type AddMemberPolicy, type RoomRole, type RoomType, type RoomView } from '../base/room-views.js';
import { roomQuery } from './room-query.js';
import { roomListStatement } from './room-list-statement.js';
import { affected, firstRow, hotRows, rows } from '../../platform/db/typed.js';
import { chatDb } from '../base/tables.js';
import { sql } from 'kysely';

export interface CreateRoomInput {
  type: 'GROUP' | 'CHANNEL' | 'CROSS_MODULE';
  name: string;
  description?: string;
  addMemberPolicy?: AddMemberPolicy;
  memberIds?: string[];
  /** The room belongs to this channel and takes its members (src/chat/rooms/channel-members.ts). */
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

export class RoomService {
  constructor(private readonly deps: ChatDeps) {}

  /** One statement per page: the page of rooms, then the unread count and last message of those rooms only. */
  async list(caller: Caller, query: ListRoomsQuery): Promise<Page<RoomView>> {
    const limit = query.limit ?? 50;
    const cursor = query.cursor === undefined ? null : parseRoomCursor(query.cursor, roomList(caller.accountId, query));
    const search = query.q !== undefined && query.archived === true ? `%${escapeLike(query.q)}%` : null;
    const { labelId, channelId } = query;
    // Filters add clauses from a fixed set, never values: a bounded set of texts to prepare.
    const statement = roomListStatement({
      search: search !== null,
      standalone: query.standalone === true,
      channel: channelId !== undefined,
      label: labelId !== undefined,
      cursor: cursor !== null,
    }).bind({
      account: caller.accountId,
      archived: query.archived === true,
      ...(search !== null ? { search } : {}),
      ...(channelId !== undefined ? { channel: channelId } : {}),
      ...(labelId !== undefined ? { label: labelId } : {}),
      ...(cursor !== null ? { pinned: cursor.pinned, at: cursor.at, id: cursor.id } : {}),
      limit: limit + 1,
    });
    const db = await readPool(this.deps);
    const rows = await hotRows(db, statement);
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
    const members = await rows(
      db,
      chatDb
        .selectFrom('room_members')
        .select(['room_id', 'account_id', 'role', 'joined_at'])
        .where('room_id', '=', sql<string>`any(${small.map((r) => r.id)}::uuid[])`)
        .orderBy('joined_at')
        .orderBy('account_id')
        .$narrowType<{ role: RoomRole }>(),
    );
    const byRoom = new Map(small.map((r) => [r.id, r]));
    for (const row of members) {
      byRoom.get(row.room_id)?.members?.push({ accountId: row.account_id, role: row.role, joinedAt: row.joined_at.toISOString() });
    }
  }

  async get(caller: Caller, roomId: string): Promise<RoomView> {
    const row = await firstRow(
      await readPool(this.deps),
      roomQuery(caller.accountId, (scope) => scope.where('r.id', '=', roomId)),
    );
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
      await affected(
        client,
        chatDb.insertInto('rooms').values({
          id: roomId,
          type: input.type,
          name,
          description: input.description ?? null,
          add_member_policy: input.addMemberPolicy ?? 'ALL_MEMBERS',
          created_by: caller.accountId,
          member_count: memberIds.length + 1,
          created_at: now,
          last_activity_at: now,
          channel_id: channelId,
        }),
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
      const current = (await firstRow(
        client,
        chatDb.selectFrom('rooms').select(['name', 'description', 'add_member_policy']).where('id', '=', roomId),
      ))!;
      const changes: Record<string, unknown> = {};
      if (name !== undefined && name !== current.name) changes.name = name;
      if (input.description !== undefined && input.description !== current.description) changes.description = input.description;
      if (input.addMemberPolicy !== undefined && input.addMemberPolicy !== current.add_member_policy)
        changes.addMemberPolicy = input.addMemberPolicy;
      if (Object.keys(changes).length === 0) return false;
      await affected(
        client,
        chatDb
          .updateTable('rooms')
          .set({
            name: (changes.name as string | undefined) ?? current.name,
            description: 'description' in changes ? (changes.description as string | null) : current.description,
            add_member_policy: (changes.addMemberPolicy as AddMemberPolicy | undefined) ?? current.add_member_policy,
          })
          .where('id', '=', roomId),
      );
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
      const inserted = await rows(
        client,
        chatDb
          .insertInto('rooms')
          .values({
            id: roomId,
            type,
            name: null,
            add_member_policy: 'ADMIN_ONLY',
            created_by: caller.accountId,
            member_count: members.length,
            created_at: now,
            last_activity_at: now,
            singleton_key: key,
          })
          .onConflict((oc) => oc.column('singleton_key').doNothing())
          .returning('id'),
      );
      if (inserted.length === 0) return false;
      await insertMembers(client, roomId, members, now);
      await emit(client, 'room.created', { roomId, type, memberIds: members.map((m) => m.accountId) }, roomAudience(roomId));
      return true;
    });
    if (createdNow) this.deps.queues.requestOutboxDrain();
    const row = await firstRow(
      this.deps.sql,
      roomQuery(caller.accountId, (scope) => scope.where('r.singleton_key', '=', key)),
    );
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
    const accounts = await rows(
      db,
      chatDb
        .selectFrom('accounts')
        .select('id')
        .where('id', '=', sql<string>`any(${ids}::uuid[])`)
        .where('status', '=', 'ACTIVE')
        .where('customer_account_id', '=', caller.customerAccountId)
        .$if(!crossModule, (q) => q.where('module_code', '=', caller.moduleCode)),
    );
    const found = new Set(accounts.map((r) => r.id));
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
  const added = await rows(
    client,
    chatDb
      .insertInto('room_members')
      .columns(['room_id', 'account_id', 'role', 'joined_at', 'last_read_seq'])
      .expression(
        chatDb.selectNoFrom((eb) => [
          sql<string>`${roomId}::uuid`.as('room_id'),
          sql<string>`unnest(${members.map((m) => m.accountId)}::uuid[])`.as('account_id'),
          sql<string>`unnest(${members.map((m) => m.role)}::text[])`.as('role'),
          sql<Date>`${at}::timestamptz`.as('joined_at'),
          eb.fn.coalesce(eb.selectFrom('rooms').select('last_seq').where('id', '=', roomId), sql<number>`0`).as('last_read_seq'),
        ]),
      )
      .onConflict((oc) => oc.doNothing())
      .returning('account_id'),
  );
  return added.map((r) => r.account_id);
}
