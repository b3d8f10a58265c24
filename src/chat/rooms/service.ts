// Rooms: the list and one room as their members see them, creation, changes by owners and admins, deletion, and
// the get-or-create rooms (saved messages, 1-1 private, the reminder bot's).
import { readPool } from '../../platform/db/read-router.js';
import { inTransaction } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { Page } from '../base/paging.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { channelRoomMembers } from './channel-members.js';
import { acceptedContact } from '../contacts/queries.js';
import { deleteRoomRows } from './deletion.js';
import { emit, roomAudience } from '../events/emit.js';
import { membershipOf, refuseFixedType, requireManager, requireOwner, roomNotFound } from '../base/membership.js';
import { ensureReminderBot } from './reminder-bot.js';
import { roomView, type AddMemberPolicy, type RoomRole, type RoomType, type RoomView } from '../base/room-views.js';
import { roomOf, singletonRoomOf } from './room-queries.js';
import { checkAddable, type AddableOptions } from './addable.js';
import { insertMembers, insertRoom, insertSingletonRoom, roomSettings, writeRoomSettings } from './queries.js';
import { listRooms, type ListRoomsQuery } from './list.js';

export type { AddableOptions } from './addable.js';
export type { ListRoomsQuery } from './list.js';

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

/** Names are stored trimmed; one made only of white space is no name. */
export function roomName(raw: string, location: string): string {
  const name = raw.trim();
  if (name.length === 0) throw chatErrors.invalid(location, 'must contain a character other than white space');
  return name;
}

export class RoomService {
  constructor(private readonly deps: ChatDeps) {}

  /** The caller's room list (see listRooms). */
  list(caller: Caller, query: ListRoomsQuery): Promise<Page<RoomView>> {
    return listRooms(this.deps, caller, query);
  }

  async get(caller: Caller, roomId: string): Promise<RoomView> {
    const row = await roomOf(await readPool(this.deps), caller.accountId, roomId);
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
      await insertRoom(client, {
        id: roomId,
        type: input.type,
        name,
        description: input.description ?? null,
        addMemberPolicy: input.addMemberPolicy ?? 'ALL_MEMBERS',
        createdBy: caller.accountId,
        memberCount: memberIds.length + 1,
        at: now,
        channelId,
      });
      await insertMembers(
        client,
        roomId,
        [{ accountId: caller.accountId, role: 'OWNER' }, ...memberIds.map((id) => ({ accountId: id, role: 'MEMBER' as const }))],
        now,
      );
      await emit(client, 'room.created', { roomId, type: input.type, memberIds: [caller.accountId, ...memberIds] }, roomAudience(roomId));
    });
    return this.get(caller, roomId);
  }

  /** Owner/admin. Only fields that differ are written; a call that changes nothing emits nothing. */
  async update(caller: Caller, roomId: string, input: UpdateRoomInput): Promise<RoomView> {
    const name = input.name === undefined ? undefined : roomName(input.name, 'body.name');
    await inTransaction(this.deps.sql, async (client) => {
      const membership = await membershipOf(client, caller, roomId, true);
      refuseFixedType(membership, 'be renamed or reconfigured');
      requireManager(membership, 'change its name, description or add-member policy');
      const current = (await roomSettings(client, roomId))!;
      const changes: Record<string, unknown> = {};
      if (name !== undefined && name !== current.name) changes.name = name;
      if (input.description !== undefined && input.description !== current.description) changes.description = input.description;
      if (input.addMemberPolicy !== undefined && input.addMemberPolicy !== current.add_member_policy)
        changes.addMemberPolicy = input.addMemberPolicy;
      if (Object.keys(changes).length === 0) return;
      await writeRoomSettings(client, roomId, {
        name: (changes.name as string | undefined) ?? current.name,
        description: 'description' in changes ? (changes.description as string | null) : current.description,
        addMemberPolicy: (changes.addMemberPolicy as AddMemberPolicy | undefined) ?? current.add_member_policy,
      });
      await emit(client, 'room.updated', { roomId, updatedBy: caller.accountId, changes }, roomAudience(roomId));
    });
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
    await inTransaction(this.deps.sql, async (client) => {
      // Concurrent callers race on the unique singleton key; the loser finds the winner's room below.
      const inserted = await insertSingletonRoom(client, {
        id: roomId,
        type,
        key,
        createdBy: caller.accountId,
        memberCount: members.length,
        at: now,
      });
      if (!inserted) return;
      await insertMembers(client, roomId, members, now);
      await emit(client, 'room.created', { roomId, type, memberIds: members.map((m) => m.accountId) }, roomAudience(roomId));
    });
    const row = await singletonRoomOf(this.deps.sql, caller.accountId, key);
    if (!row) throw roomNotFound();
    return roomView(row, this.deps.clock.now());
  }

  /** Accounts a caller may put in a room (see checkAddable). */
  checkAddable(caller: Caller, ids: string[], crossModule: boolean, location: string, options: AddableOptions = {}): Promise<void> {
    return checkAddable(this.deps.sql, caller, ids, crossModule, location, options);
  }
}
