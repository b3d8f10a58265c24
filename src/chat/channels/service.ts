// Channels: creation in EXPLICIT or RULE mode, the caller's channel list, detail, update, delete, members, the
// rule and the caller's sidebar pin. Membership changes go through sync.ts, which also carries them into the
// channel's rooms.
import { inTransaction } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { deleteRoomRows } from '../rooms/deletion.js';
import { accountsAudience, channelAudience, emit } from '../events/emit.js';
import type { Page } from '../base/paging.js';
import { roomName, type RoomService } from '../rooms/service.js';
import {
  channelAccess,
  channelNotFound,
  requireChannelManager,
  requireChannelOwner,
  requireExplicitMode,
  requireRuleMode,
  type MembershipMode,
} from '../base/channel-access.js';
import { changeChannelPin } from './preferences.js';
import { listChannelMembers, listChannels, type PageQuery } from './lists.js';
import { parseRule } from './rule.js';
import { applyDelta, evaluateChannel } from './sync.js';
import { insertChannelMember, lockChannelRooms } from './sync-queries.js';
import {
  channelMemberOf,
  channelOf,
  channelSettings,
  deleteAllMembers,
  insertChannel,
  insertMembers,
  isChannelMember,
  markChannelDeleted,
  writeChannelSettings,
  writeRule,
} from './queries.js';
import { channelMemberView, channelView, type ChannelMemberView, type ChannelView } from './views.js';

export interface CreateChannelInput {
  name: string;
  description?: string;
  membershipMode: MembershipMode;
  rule?: Record<string, unknown>;
  memberIds?: string[];
}

export interface UpdateChannelInput {
  name?: string;
  description?: string | null;
}

export type { PageQuery } from './lists.js';

export class ChannelService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly rooms: RoomService,
  ) {}

  /** The caller's pinned channels first, then newest first; keyset (pinned, created_at, id). */
  list(caller: Caller, query: PageQuery): Promise<Page<ChannelView>> {
    return listChannels(this.deps, caller, query);
  }

  async get(caller: Caller, channelId: string): Promise<ChannelView> {
    const row = await channelOf(this.deps.sql, caller.accountId, channelId);
    if (!row) throw channelNotFound();
    return channelView(row);
  }

  /** The creator is OWNER; EXPLICIT takes memberIds, RULE takes a rule whose accounts join at once. */
  async create(caller: Caller, input: CreateChannelInput): Promise<ChannelView> {
    const name = roomName(input.name, 'body.name');
    const rule = input.membershipMode === 'RULE' ? this.ruleOf(input) : null;
    if (input.membershipMode === 'EXPLICIT' && input.rule !== undefined)
      throw chatErrors.invalid('body.rule', 'is only accepted with membershipMode RULE');
    if (input.membershipMode === 'RULE' && input.memberIds !== undefined) {
      throw chatErrors.invalid(
        'body.memberIds',
        'is only accepted with membershipMode EXPLICIT; the rule decides the members of a RULE channel',
      );
    }
    const requested = (input.memberIds ?? []).map((id) => id.toLowerCase());
    const memberIds = [...new Set(requested)].filter((id) => id !== caller.accountId);
    await this.rooms.checkAddable(caller, memberIds, false, 'body.memberIds', { requested });
    const channelId = newId();
    const now = this.deps.clock.now();
    await inTransaction(this.deps.sql, async (client) => {
      await insertChannel(client, {
        id: channelId,
        moduleCode: caller.moduleCode,
        customerAccountId: caller.customerAccountId,
        name,
        description: input.description ?? null,
        membershipMode: input.membershipMode,
        rule,
        createdBy: caller.accountId,
        at: now,
      });
      await insertChannelMember(client, channelId, caller.accountId, 'OWNER', now);
      await emit(
        client,
        'channel.created',
        { channelId, name, membershipMode: input.membershipMode, rule, createdBy: caller.accountId },
        channelAudience(channelId),
      );
      if (rule) {
        await evaluateChannel(
          client,
          { id: channelId, moduleCode: caller.moduleCode, customerAccountId: caller.customerAccountId, rule },
          caller.accountId,
          now,
        );
      } else if (memberIds.length > 0) {
        await insertMembers(client, channelId, memberIds, now);
        await applyDelta(client, channelId, { added: memberIds, removed: [] }, caller.accountId, 'explicit', now);
      }
    });
    return this.get(caller, channelId);
  }

  /** Owner/admin. Only fields that differ are written; a call that changes nothing emits nothing. */
  async update(caller: Caller, channelId: string, input: UpdateChannelInput): Promise<ChannelView> {
    const name = input.name === undefined ? undefined : roomName(input.name, 'body.name');
    await inTransaction(this.deps.sql, async (client) => {
      requireChannelManager(await channelAccess(client, caller, channelId, true), 'rename or describe it');
      const current = (await channelSettings(client, channelId))!;
      const changes: Record<string, unknown> = {};
      if (name !== undefined && name !== current.name) changes.name = name;
      if (input.description !== undefined && input.description !== current.description) changes.description = input.description;
      if (Object.keys(changes).length === 0) return;
      await writeChannelSettings(client, channelId, {
        name: (changes.name as string | undefined) ?? current.name,
        description: 'description' in changes ? (changes.description as string | null) : current.description,
      });
      await emit(client, 'channel.updated', { channelId, updatedBy: caller.accountId, changes }, channelAudience(channelId));
    });
    return this.get(caller, channelId);
  }

  /** Owner only: the channel and every room of it are deleted; each room as by DELETE /rooms/{id}. */
  async delete(caller: Caller, channelId: string): Promise<{ channelId: string; status: 'deleted' }> {
    await inTransaction(this.deps.sql, async (client) => {
      requireChannelOwner(await channelAccess(client, caller, channelId, true), 'delete it');
      const now = this.deps.clock.now();
      const rooms = await lockChannelRooms(client, channelId);
      for (const roomId of rooms) await deleteRoomRows(client, roomId, caller.accountId, now);
      const members = await deleteAllMembers(client, channelId);
      await markChannelDeleted(client, channelId, now);
      // The channel has no members any more, so the event names the former ones.
      await emit(client, 'channel.deleted', { channelId, deletedBy: caller.accountId, roomIds: rooms }, accountsAudience(members));
    });
    return { channelId, status: 'deleted' };
  }

  /**
   * Owner/admin, RULE mode only. The new rule is stored and membership re-evaluated in one transaction: when
   * the answer arrives, the member list is the rule's result.
   */
  async setRule(caller: Caller, channelId: string, raw: unknown): Promise<ChannelView> {
    const rule = parseRule(raw, 'body.rule');
    await inTransaction(this.deps.sql, async (client) => {
      const access = await channelAccess(client, caller, channelId, true);
      requireRuleMode(access);
      requireChannelManager(access, 'change its rule');
      const now = this.deps.clock.now();
      await writeRule(client, channelId, rule);
      await emit(client, 'channel.rule_changed', { channelId, rule, changedBy: caller.accountId }, channelAudience(channelId));
      await evaluateChannel(
        client,
        { id: channelId, moduleCode: access.moduleCode, customerAccountId: access.customerAccountId, rule },
        caller.accountId,
        now,
      );
    });
    return this.get(caller, channelId);
  }

  /** Joining order, keyset (joined_at, account_id). */
  members(caller: Caller, channelId: string, query: PageQuery): Promise<Page<ChannelMemberView>> {
    return listChannelMembers(this.deps, caller, channelId, query);
  }

  /**
   * Owner/admin, EXPLICIT mode only; role ADMIN needs an OWNER. The account joins the channel and every room of
   * it. An existing member is answered as it is (its role unchanged) and nothing is written.
   */
  async addMember(caller: Caller, channelId: string, rawAccountId: string, role: 'ADMIN' | 'MEMBER'): Promise<ChannelMemberView> {
    const accountId = rawAccountId.toLowerCase();
    await inTransaction(this.deps.sql, async (client) => {
      const access = await channelAccess(client, caller, channelId, true);
      requireExplicitMode(access);
      requireChannelManager(access, 'add members');
      if (role === 'ADMIN') requireChannelOwner(access, 'add an ADMIN');
      if (await isChannelMember(client, channelId, accountId)) return;
      await this.rooms.checkAddable(caller, [accountId], false, 'body.accountId', { single: true, db: client });
      const now = this.deps.clock.now();
      await insertChannelMember(client, channelId, accountId, role, now);
      await applyDelta(client, channelId, { added: [accountId], removed: [] }, caller.accountId, 'explicit', now);
    });
    const row = await channelMemberOf(this.deps.sql, channelId, accountId);
    if (!row) throw channelNotFound();
    return channelMemberView(row);
  }

  /** Any member; only the caller's own row changes, and a call that changes nothing emits nothing. */
  async preferences(caller: Caller, channelId: string, input: { pinned?: boolean }): Promise<ChannelView> {
    await changeChannelPin(this.deps, caller, channelId, input);
    return this.get(caller, channelId);
  }

  private ruleOf(input: CreateChannelInput) {
    if (input.rule === undefined) throw chatErrors.invalid('body.rule', 'is required with membershipMode RULE');
    return parseRule(input.rule, 'body.rule');
  }
}
