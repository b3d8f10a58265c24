// Channels: creation in EXPLICIT or RULE mode, the caller's channel list, detail, update, delete, members, the
// rule and the caller's sidebar pin. Membership changes go through sync.ts, which also carries them into the
// channel's rooms.
import { inTransaction } from '../../platform/db/sql.js';
import { cursorInstant, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { chatErrors } from '../errors.js';
import { deleteRoomRows } from '../rooms/deletion.js';
import { accountsAudience, channelAudience, emit } from '../events/emit.js';
import { roomName, type Page, type RoomService } from '../rooms/service.js';
import {
  channelAccess,
  channelNotFound,
  requireChannelManager,
  requireChannelOwner,
  requireExplicitMode,
  requireRuleMode,
} from './access.js';
import { parseRule } from './rule.js';
import { applyDelta, evaluateChannel } from './sync.js';
import {
  channelMemberSelect,
  channelMemberView,
  channelQuery,
  channelView,
  type ChannelMemberRow,
  type ChannelMemberView,
  type ChannelRow,
  type ChannelView,
  type MembershipMode,
} from './views.js';

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

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

export class ChannelService {
  constructor(
    private readonly deps: ChatDeps,
    private readonly rooms: RoomService,
  ) {}

  /** The caller's pinned channels first, then newest first; keyset (pinned, created_at, id). */
  async list(caller: Caller, query: PageQuery): Promise<Page<ChannelView>> {
    const list = `channels:${caller.accountId}`;
    const limit = query.limit ?? 50;
    const params: unknown[] = [caller.accountId];
    let filter = '';
    if (query.cursor !== undefined) {
      const c = decodeCursor(query.cursor, list);
      const at = cursorInstant(c?.a);
      const id = cursorUuid(c?.i);
      if (!c || (c.p !== 0 && c.p !== 1) || !at || !id) throw chatErrors.invalidCursor('query.cursor');
      params.push(c.p === 1, at, id);
      filter = 'and (m.pinned, c.created_at, c.id) < ($2::boolean, $3::timestamptz, $4::uuid)';
    }
    params.push(limit + 1);
    const { rows } = await this.deps.sql.query<ChannelRow>(
      `${channelQuery(filter)} order by m.pinned desc, c.created_at desc, c.id desc limit $${params.length}`,
      params,
    );
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map(channelView),
      hasMore,
      nextCursor: hasMore && last ? encodeCursor({ p: last.pinned ? 1 : 0, a: last.created_at.toISOString(), i: last.id }, list) : null,
    };
  }

  async get(caller: Caller, channelId: string): Promise<ChannelView> {
    const { rows } = await this.deps.sql.query<ChannelRow>(channelQuery('and c.id = $2'), [caller.accountId, channelId]);
    if (!rows[0]) throw channelNotFound();
    return channelView(rows[0]);
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
      await client.query(
        `insert into channels (id, module_code, customer_account_id, name, description, membership_mode, rule, member_count, created_by, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, 1, $8, $9)`,
        [
          channelId,
          caller.moduleCode,
          caller.customerAccountId,
          name,
          input.description ?? null,
          input.membershipMode,
          rule && JSON.stringify(rule),
          caller.accountId,
          now,
        ],
      );
      await client.query(`insert into channel_members (channel_id, account_id, role, joined_at) values ($1, $2, 'OWNER', $3)`, [
        channelId,
        caller.accountId,
        now,
      ]);
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
        await client.query(
          `insert into channel_members (channel_id, account_id, role, joined_at) select $1, unnest($2::uuid[]), 'MEMBER', $3`,
          [channelId, memberIds, now],
        );
        await applyDelta(client, channelId, { added: memberIds, removed: [] }, caller.accountId, 'explicit', now);
      }
    });
    this.deps.queues.requestOutboxDrain();
    return this.get(caller, channelId);
  }

  /** Owner/admin. Only fields that differ are written; a call that changes nothing emits nothing. */
  async update(caller: Caller, channelId: string, input: UpdateChannelInput): Promise<ChannelView> {
    const name = input.name === undefined ? undefined : roomName(input.name, 'body.name');
    const changed = await inTransaction(this.deps.sql, async (client) => {
      requireChannelManager(await channelAccess(client, caller, channelId, true), 'rename or describe it');
      const { rows } = await client.query<{ name: string; description: string | null }>(
        'select name, description from channels where id = $1',
        [channelId],
      );
      const current = rows[0]!;
      const changes: Record<string, unknown> = {};
      if (name !== undefined && name !== current.name) changes.name = name;
      if (input.description !== undefined && input.description !== current.description) changes.description = input.description;
      if (Object.keys(changes).length === 0) return false;
      await client.query('update channels set name = $2, description = $3 where id = $1', [
        channelId,
        changes.name ?? current.name,
        'description' in changes ? changes.description : current.description,
      ]);
      await emit(client, 'channel.updated', { channelId, updatedBy: caller.accountId, changes }, channelAudience(channelId));
      return true;
    });
    if (changed) this.deps.queues.requestOutboxDrain();
    return this.get(caller, channelId);
  }

  /** Owner only: the channel and every room of it are deleted; each room as by DELETE /rooms/{id}. */
  async delete(caller: Caller, channelId: string): Promise<{ channelId: string; status: 'deleted' }> {
    await inTransaction(this.deps.sql, async (client) => {
      requireChannelOwner(await channelAccess(client, caller, channelId, true), 'delete it');
      const now = this.deps.clock.now();
      const { rows: rooms } = await client.query<{ id: string }>(
        'select id from rooms where channel_id = $1 and deleted_at is null order by id for update',
        [channelId],
      );
      for (const room of rooms) await deleteRoomRows(client, room.id, caller.accountId, now);
      const { rows: members } = await client.query<{ account_id: string }>(
        'delete from channel_members where channel_id = $1 returning account_id',
        [channelId],
      );
      await client.query('update channels set deleted_at = $2, member_count = 0 where id = $1', [channelId, now]);
      // The channel has no members any more, so the event names the former ones.
      await emit(
        client,
        'channel.deleted',
        { channelId, deletedBy: caller.accountId, roomIds: rooms.map((r) => r.id) },
        accountsAudience(members.map((m) => m.account_id)),
      );
    });
    this.deps.queues.requestOutboxDrain();
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
      await client.query('update channels set rule = $2 where id = $1', [channelId, JSON.stringify(rule)]);
      await emit(client, 'channel.rule_changed', { channelId, rule, changedBy: caller.accountId }, channelAudience(channelId));
      await evaluateChannel(
        client,
        { id: channelId, moduleCode: access.moduleCode, customerAccountId: access.customerAccountId, rule },
        caller.accountId,
        now,
      );
    });
    this.deps.queues.requestOutboxDrain();
    return this.get(caller, channelId);
  }

  /** Joining order, keyset (joined_at, account_id). */
  async members(caller: Caller, channelId: string, query: PageQuery): Promise<Page<ChannelMemberView>> {
    const list = `channel-members:${channelId}`;
    const limit = query.limit ?? 100;
    const params: unknown[] = [channelId];
    let sql = channelMemberSelect;
    if (query.cursor !== undefined) {
      const c = decodeCursor(query.cursor, list);
      const at = cursorInstant(c?.a);
      const id = cursorUuid(c?.i);
      if (!at || !id) throw chatErrors.invalidCursor('query.cursor');
      params.push(at, id);
      sql += ' and (m.joined_at, m.account_id) > ($2::timestamptz, $3::uuid)';
    }
    await channelAccess(this.deps.sql, caller, channelId);
    params.push(limit + 1);
    const { rows } = await this.deps.sql.query<ChannelMemberRow>(
      `${sql} order by m.joined_at, m.account_id limit $${params.length}`,
      params,
    );
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map(channelMemberView),
      hasMore,
      nextCursor: hasMore && last ? encodeCursor({ a: last.joined_at.toISOString(), i: last.account_id }, list) : null,
    };
  }

  /**
   * Owner/admin, EXPLICIT mode only; role ADMIN needs an OWNER. The account joins the channel and every room of
   * it. An existing member is answered as it is (its role unchanged) and nothing is written.
   */
  async addMember(caller: Caller, channelId: string, rawAccountId: string, role: 'ADMIN' | 'MEMBER'): Promise<ChannelMemberView> {
    const accountId = rawAccountId.toLowerCase();
    const added = await inTransaction(this.deps.sql, async (client) => {
      const access = await channelAccess(client, caller, channelId, true);
      requireExplicitMode(access);
      requireChannelManager(access, 'add members');
      if (role === 'ADMIN') requireChannelOwner(access, 'add an ADMIN');
      const { rowCount } = await client.query('select 1 from channel_members where channel_id = $1 and account_id = $2', [
        channelId,
        accountId,
      ]);
      if (rowCount) return false;
      await this.rooms.checkAddable(caller, [accountId], false, 'body.accountId', { single: true, db: client });
      const now = this.deps.clock.now();
      await client.query('insert into channel_members (channel_id, account_id, role, joined_at) values ($1, $2, $3, $4)', [
        channelId,
        accountId,
        role,
        now,
      ]);
      await applyDelta(client, channelId, { added: [accountId], removed: [] }, caller.accountId, 'explicit', now);
      return true;
    });
    if (added) this.deps.queues.requestOutboxDrain();
    const { rows } = await this.deps.sql.query<ChannelMemberRow>(`${channelMemberSelect} and m.account_id = $2`, [channelId, accountId]);
    if (!rows[0]) throw channelNotFound();
    return channelMemberView(rows[0]);
  }

  /** Any member; only the caller's own row changes, and a call that changes nothing emits nothing. */
  async preferences(caller: Caller, channelId: string, input: { pinned?: boolean }): Promise<ChannelView> {
    const changed = await inTransaction(this.deps.sql, async (client) => {
      const { rows } = await client.query<{ pinned: boolean }>(
        `select m.pinned from channel_members m join channels c on c.id = m.channel_id and c.deleted_at is null
          where m.channel_id = $1 and m.account_id = $2 for update of m`,
        [channelId, caller.accountId],
      );
      const current = rows[0];
      if (!current) throw channelNotFound();
      if (input.pinned === undefined || input.pinned === current.pinned) return false;
      await client.query('update channel_members set pinned = $3 where channel_id = $1 and account_id = $2', [
        channelId,
        caller.accountId,
        input.pinned,
      ]);
      await emit(
        client,
        'channel.preferences_changed',
        { channelId, accountId: caller.accountId, pinned: input.pinned },
        accountsAudience([caller.accountId]),
      );
      return true;
    });
    if (changed) this.deps.queues.requestOutboxDrain();
    return this.get(caller, channelId);
  }

  private ruleOf(input: CreateChannelInput) {
    if (input.rule === undefined) throw chatErrors.invalid('body.rule', 'is required with membershipMode RULE');
    return parseRule(input.rule, 'body.rule');
  }
}
