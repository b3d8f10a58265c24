// Bot administration: platform administrators create and delete bots (each with an account of type BOT in the
// module and customer the body names); the accounts of that module and customer, and platform administrators,
// manage them. Every change writes its event in its transaction (docs/events.md, "Bots").
import { inTransaction } from '../../platform/db/sql.js';
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../context.js';
import { chatErrors } from '../errors.js';
import { isCursorInstant, isCursorUuid } from '../rooms/cursors.js';
import { accountsAudience, emit, roomAudience } from '../events/emit.js';
import { membershipOf, refuseFixedType, requireManager } from '../rooms/membership.js';
import type { Page } from '../rooms/service.js';
import { lockManagedBot, managedBot } from './access.js';
import type { BotDeps } from './deps.js';
import { botErrors } from './errors.js';
import { botSelect, botView, loadBot, webhookView, type BotRow, type BotView, type UpdateKind, type WebhookView } from './rows.js';
import { newBotToken, newWebhookSecret, tokenHash } from './tokens.js';
import { changeWebhookNow } from './webhooks.js';
import { webhookUrlProblem } from './webhook-url.js';

export interface CreateBotInput {
  username: string;
  displayName: string;
  description?: string | null;
  avatarUrl?: string | null;
  moduleCode: string;
  customerAccountId: string;
}

export interface UpdateBotInput {
  username?: string;
  displayName?: string;
  description?: string | null;
  avatarUrl?: string | null;
}

export interface WebhookInput {
  url: string | null;
  secretToken?: string;
  maxConnections?: number;
  allowedUpdates?: UpdateKind[];
  dropPendingUpdates?: boolean;
}

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

export interface WebhookListItem extends WebhookView {
  botId: string;
  pendingUpdateCount: number;
}

const usernameConflict = (err: unknown): boolean =>
  (err as { code?: string; constraint?: string }).code === '23505' && (err as { constraint?: string }).constraint === 'bots_username';

export class BotAdminService {
  constructor(private readonly deps: BotDeps) {}

  /** Oldest first, keyset on (created_at, id); platform administrators see every live bot. */
  private async page(
    caller: Caller,
    query: PageQuery,
    extra = '',
  ): Promise<{ rows: BotRow[]; hasMore: boolean; nextCursor: string | null }> {
    const list = `bots:${caller.accountId}:${extra}`;
    const limit = query.limit ?? 50;
    const params: unknown[] = [];
    let where = extra;
    if (!caller.platformAdmin) {
      params.push(caller.moduleCode, caller.customerAccountId);
      where += ` and b.module_code = $${params.length - 1} and b.customer_account_id = $${params.length}`;
    }
    if (query.cursor !== undefined) {
      const c = decodeCursor(query.cursor, list);
      if (!c || !isCursorInstant(c.a) || !isCursorUuid(c.i)) throw chatErrors.invalidCursor('query.cursor');
      params.push(c.a, c.i);
      where += ` and (b.created_at, b.id) > ($${params.length - 1}::timestamptz, $${params.length}::uuid)`;
    }
    params.push(limit + 1);
    const { rows } = await this.deps.sql.query<BotRow>(`${botSelect} ${where} order by b.created_at, b.id limit $${params.length}`, params);
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      rows: page,
      hasMore,
      nextCursor: hasMore && last ? encodeCursor({ a: last.created_at.toISOString(), i: last.id }, list) : null,
    };
  }

  async list(caller: Caller, query: PageQuery): Promise<Page<BotView>> {
    const { rows, hasMore, nextCursor } = await this.page(caller, query);
    return { items: rows.map(botView), hasMore, nextCursor };
  }

  async listWebhooks(caller: Caller, query: PageQuery): Promise<Page<WebhookListItem>> {
    const { rows, hasMore, nextCursor } = await this.page(caller, query, 'and b.webhook_url is not null');
    return { items: rows.map((r) => ({ botId: r.id, ...webhookView(r)!, pendingUpdateCount: r.pending })), hasMore, nextCursor };
  }

  async create(caller: Caller, input: CreateBotInput): Promise<{ bot: BotView; token: string }> {
    const { rowCount } = await this.deps.sql.query('select 1 from modules where code = $1', [input.moduleCode]);
    if (rowCount === 0) throw chatErrors.invalid('body.moduleCode', `names no module; create module "${input.moduleCode}" first`);
    const botId = newId();
    const accountId = newId();
    const now = this.deps.clock.now();
    let token = '';
    try {
      await inTransaction(this.deps.sql, async (client) => {
        const { rows } = await client.query<{ bot_api_id: number }>(
          `insert into accounts (id, module_code, customer_account_id, display_name, avatar_url, account_type, status, created_at, updated_at)
           values ($1, $2, $3, $4, $5, 'BOT', 'ACTIVE', $6, $6) returning bot_api_id`,
          [accountId, input.moduleCode, input.customerAccountId, input.displayName, input.avatarUrl ?? null, now],
        );
        token = newBotToken(rows[0]!.bot_api_id);
        await client.query(
          `insert into bots (id, account_id, module_code, customer_account_id, username, description, token_hash, created_at, updated_at)
           values ($1, $2, $3, $4, $5, $6, $7, $8, $8)`,
          [botId, accountId, input.moduleCode, input.customerAccountId, input.username, input.description ?? null, tokenHash(token), now],
        );
        await emit(
          client,
          'bot.created',
          {
            botId,
            accountId,
            username: input.username,
            moduleCode: input.moduleCode,
            customerAccountId: input.customerAccountId,
            createdBy: caller.accountId,
          },
          accountsAudience([caller.accountId]),
        );
      });
    } catch (err) {
      if (usernameConflict(err)) throw botErrors.usernameTaken(input.username);
      throw err;
    }
    this.deps.queues.requestOutboxDrain();
    return { bot: botView((await loadBot(this.deps.sql, botId))!), token };
  }

  async get(caller: Caller, botId: string): Promise<BotView> {
    return botView(await managedBot(this.deps.sql, caller, botId));
  }

  /** Only fields that differ are written; a call that changes nothing emits nothing. */
  async update(caller: Caller, botId: string, input: UpdateBotInput): Promise<BotView> {
    let changed: boolean;
    try {
      changed = await inTransaction(this.deps.sql, async (client) => {
        await lockManagedBot(client, caller, botId);
        const current = (await loadBot(client, botId))!;
        const changes: Record<string, unknown> = {};
        if (input.username !== undefined && input.username !== current.username) changes.username = input.username;
        if (input.displayName !== undefined && input.displayName !== current.display_name) changes.displayName = input.displayName;
        if (input.description !== undefined && input.description !== current.description) changes.description = input.description;
        if (input.avatarUrl !== undefined && input.avatarUrl !== current.avatar_url) changes.avatarUrl = input.avatarUrl;
        if (Object.keys(changes).length === 0) return false;
        const now = this.deps.clock.now();
        await client.query('update bots set username = $2, description = $3, updated_at = $4 where id = $1', [
          botId,
          changes.username ?? current.username,
          'description' in changes ? changes.description : current.description,
          now,
        ]);
        await client.query('update accounts set display_name = $2, avatar_url = $3, updated_at = $4 where id = $1', [
          current.account_id,
          changes.displayName ?? current.display_name,
          'avatarUrl' in changes ? changes.avatarUrl : current.avatar_url,
          now,
        ]);
        await emit(client, 'bot.updated', { botId, updatedBy: caller.accountId, changes }, accountsAudience([caller.accountId]));
        return true;
      });
    } catch (err) {
      if (usernameConflict(err)) throw botErrors.usernameTaken(input.username!);
      throw err;
    }
    if (changed) this.deps.queues.requestOutboxDrain();
    return this.get(caller, botId);
  }

  /**
   * Soft delete: the token stops at once (every lookup skips deleted bots), pending updates and read-all switches
   * go, the account is deactivated (so nobody adds it to a room again); the bot's messages and memberships stay.
   */
  async delete(caller: Caller, botId: string): Promise<{ botId: string; status: 'deleted' }> {
    const accountId = await inTransaction(this.deps.sql, async (client) => {
      await lockManagedBot(client, caller, botId);
      const now = this.deps.clock.now();
      const { rows } = await client.query<{ account_id: string }>(
        `update bots set deleted_at = $2, updated_at = $2, webhook_url = null, webhook_secret = null where id = $1 returning account_id`,
        [botId, now],
      );
      const account = rows[0]!.account_id;
      await client.query('delete from bot_updates where bot_id = $1', [botId]);
      await client.query('delete from bot_room_settings where bot_id = $1', [botId]);
      const { rows: before } = await client.query<{ status: string }>('select status from accounts where id = $1 for update', [account]);
      await client.query(`update accounts set status = 'DEACTIVATED', updated_at = $2 where id = $1`, [account, now]);
      const audience = accountsAudience([caller.accountId]);
      await emit(client, 'bot.deleted', { botId, accountId: account, deletedBy: caller.accountId }, audience);
      if (before[0]?.status !== 'DEACTIVATED') {
        await emit(client, 'account.status_changed', { accountId: account, from: before[0]?.status ?? null, to: 'DEACTIVATED' }, audience);
      }
      return account;
    });
    this.deps.queues.requestOutboxDrain();
    await this.deps.accounts.invalidate(accountId);
    await this.deps.waiters.notify([botId]);
    return { botId, status: 'deleted' };
  }

  /** A new token with the same id part; the old one fails from the commit on, long polls made with it included. */
  async regenerateToken(caller: Caller, botId: string): Promise<{ botId: string; token: string }> {
    const token = await inTransaction(this.deps.sql, async (client) => {
      await lockManagedBot(client, caller, botId);
      const { rows } = await client.query<{ bot_api_id: number }>(
        'select a.bot_api_id from bots b join accounts a on a.id = b.account_id where b.id = $1',
        [botId],
      );
      const token = newBotToken(rows[0]!.bot_api_id);
      await client.query('update bots set token_hash = $2, updated_at = $3 where id = $1', [
        botId,
        tokenHash(token),
        this.deps.clock.now(),
      ]);
      await emit(client, 'bot.token_regenerated', { botId, regeneratedBy: caller.accountId }, accountsAudience([caller.accountId]));
      return token;
    });
    this.deps.queues.requestOutboxDrain();
    await this.deps.waiters.notify([botId]);
    return { botId, token };
  }

  async setWebhook(caller: Caller, botId: string, input: WebhookInput): Promise<BotView> {
    await managedBot(this.deps.sql, caller, botId);
    this.checkUrl(input.url, 'body.url');
    await this.applyWebhook(caller, botId, {
      url: input.url,
      secret: input.secretToken ?? null,
      maxConnections: input.maxConnections ?? null,
      ...(input.allowedUpdates !== undefined ? { allowedUpdates: input.allowedUpdates } : {}),
      dropPendingUpdates: input.dropPendingUpdates ?? false,
    });
    return this.get(caller, botId);
  }

  /** POST /api/v1/webhooks: the same installation with a secret made here, answered once. */
  async createWebhook(caller: Caller, input: WebhookInput & { botId: string; url: string }): Promise<WebhookListItem & { secret: string }> {
    await managedBot(this.deps.sql, caller, input.botId);
    this.checkUrl(input.url, 'body.url');
    const secret = newWebhookSecret();
    await this.applyWebhook(caller, input.botId, {
      url: input.url,
      secret,
      maxConnections: input.maxConnections ?? null,
      ...(input.allowedUpdates !== undefined ? { allowedUpdates: input.allowedUpdates } : {}),
      dropPendingUpdates: input.dropPendingUpdates ?? false,
    });
    const bot = (await loadBot(this.deps.sql, input.botId))!;
    return { botId: bot.id, ...webhookView(bot)!, pendingUpdateCount: bot.pending, secret };
  }

  private checkUrl(url: string | null, location: string): void {
    if (url === null) return;
    const problem = webhookUrlProblem(url, this.deps.webhookPolicy);
    if (problem) throw chatErrors.invalid(location, problem);
  }

  private async applyWebhook(caller: Caller, botId: string, change: Parameters<typeof changeWebhookNow>[2]): Promise<void> {
    await changeWebhookNow(this.deps, botId, change, caller.accountId, accountsAudience([caller.accountId]), async (client) =>
      lockManagedBot(client, caller, botId),
    );
  }

  /**
   * Read-all in one room: the caller manages the bot and is an owner or admin of the room (room members are told by
   * the bot.read_all_changed event); the bot must be a member. PRIVATE rooms need no switch: there the bot reads
   * every message. Setting the current value again changes nothing.
   */
  async setRoomReadAll(
    caller: Caller,
    botId: string,
    roomId: string,
    readAll: boolean,
  ): Promise<{ botId: string; roomId: string; readAll: boolean }> {
    const bot = await managedBot(this.deps.sql, caller, botId);
    const changed = await inTransaction(this.deps.sql, async (client) => {
      const membership = await membershipOf(client, caller, roomId, true);
      refuseFixedType(membership, 'switch a bot to read every message (a bot reads every message of a private room)');
      requireManager(membership, "switch a bot's read-all");
      const { rowCount } = await client.query('select 1 from room_members where room_id = $1 and account_id = $2', [
        roomId,
        bot.account_id,
      ]);
      if (rowCount === 0) throw botErrors.notInRoom();
      const { rows } = await client.query<{ read_all: boolean }>(
        'select read_all from bot_room_settings where bot_id = $1 and room_id = $2',
        [botId, roomId],
      );
      if ((rows[0]?.read_all ?? false) === readAll) return false;
      await client.query(
        `insert into bot_room_settings (bot_id, room_id, read_all, updated_at) values ($1, $2, $3, $4)
         on conflict (bot_id, room_id) do update set read_all = excluded.read_all, updated_at = excluded.updated_at`,
        [botId, roomId, readAll, this.deps.clock.now()],
      );
      await emit(
        client,
        'bot.read_all_changed',
        { botId, botAccountId: bot.account_id, roomId, readAll, changedBy: caller.accountId },
        roomAudience(roomId),
      );
      return true;
    });
    if (changed) this.deps.queues.requestOutboxDrain();
    return { botId, roomId, readAll };
  }
}
