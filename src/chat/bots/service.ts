// Bot administration: platform administrators create bots (each with an account of type BOT in the module and
// customer the body names); the accounts of that module and customer, and platform administrators, manage and
// delete them. Every change writes its event in its transaction (docs/events.md, "Bots").
import { sql } from 'kysely';
import { inTransaction } from '../../platform/db/sql.js';
import { affected, firstRow, rows } from '../../platform/db/typed.js';
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import { chatErrors } from '../base/errors.js';
import { isCursorInstant, isCursorUuid } from '../rooms/cursors.js';
import { accountsAudience, emit, roomAudience } from '../events/emit.js';
import { membershipOf, refuseFixedType, requireManager } from '../base/membership.js';
import type { Page } from '../base/paging.js';
import { chatDb } from '../base/tables.js';
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

const webhookListCursorName = 'and b.webhook_url is not null';

const usernameConflict = (err: unknown): boolean =>
  (err as { code?: string; constraint?: string }).code === '23505' && (err as { constraint?: string }).constraint === 'bots_username';

export class BotAdminService {
  constructor(private readonly deps: BotDeps) {}

  /** Oldest first, keyset on (created_at, id); platform administrators see every live bot. */
  private async page(
    caller: Caller,
    query: PageQuery,
    webhooksOnly = false,
  ): Promise<{ rows: BotRow[]; hasMore: boolean; nextCursor: string | null }> {
    // the list's name in its cursors stays what it was, so cursors handed out earlier still work
    const list = `bots:${caller.accountId}:${webhooksOnly ? webhookListCursorName : ''}`;
    const limit = query.limit ?? 50;
    let after: { at: string; id: string } | undefined;
    if (query.cursor !== undefined) {
      const c = decodeCursor(query.cursor, list);
      if (!c || !isCursorInstant(c.a) || !isCursorUuid(c.i)) throw chatErrors.invalidCursor('query.cursor');
      after = { at: c.a, id: c.i };
    }
    const found = await rows(
      this.deps.sql,
      botSelect
        .$if(webhooksOnly, (q) => q.where('b.webhook_url', 'is not', null))
        .$if(!caller.platformAdmin, (q) =>
          q.where('b.module_code', '=', caller.moduleCode).where('b.customer_account_id', '=', caller.customerAccountId),
        )
        .$if(after !== undefined, (q) =>
          q.where((eb) =>
            eb(eb.refTuple('b.created_at', 'b.id'), '>', eb.tuple(sql<Date>`${after!.at}::timestamptz`, sql<string>`${after!.id}::uuid`)),
          ),
        )
        .orderBy('b.created_at')
        .orderBy('b.id')
        .limit(limit + 1),
    );
    const hasMore = found.length > limit;
    const page = found.slice(0, limit);
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
    const { rows, hasMore, nextCursor } = await this.page(caller, query, true);
    return { items: rows.map((r) => ({ botId: r.id, ...webhookView(r)!, pendingUpdateCount: r.pending })), hasMore, nextCursor };
  }

  async create(caller: Caller, input: CreateBotInput): Promise<{ bot: BotView; token: string }> {
    const module = await firstRow(this.deps.sql, chatDb.selectFrom('modules').select('code').where('code', '=', input.moduleCode));
    if (!module) throw chatErrors.invalid('body.moduleCode', `names no module; create module "${input.moduleCode}" first`);
    const botId = newId();
    const accountId = newId();
    const now = this.deps.clock.now();
    let token = '';
    try {
      await inTransaction(this.deps.sql, async (client) => {
        const account = await firstRow(
          client,
          chatDb
            .insertInto('accounts')
            .values({
              id: accountId,
              module_code: input.moduleCode,
              customer_account_id: input.customerAccountId,
              display_name: input.displayName,
              avatar_url: input.avatarUrl ?? null,
              account_type: 'BOT',
              status: 'ACTIVE',
              created_at: now,
              updated_at: now,
            })
            .returning('bot_api_id'),
        );
        token = newBotToken(account!.bot_api_id);
        await affected(
          client,
          chatDb.insertInto('bots').values({
            id: botId,
            account_id: accountId,
            module_code: input.moduleCode,
            customer_account_id: input.customerAccountId,
            username: input.username,
            description: input.description ?? null,
            token_hash: tokenHash(token),
            created_at: now,
            updated_at: now,
          }),
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
    return { bot: botView((await loadBot(this.deps.sql, botId))!), token };
  }

  async get(caller: Caller, botId: string): Promise<BotView> {
    return botView(await managedBot(this.deps.sql, caller, botId));
  }

  /** Only fields that differ are written; a call that changes nothing emits nothing. */
  async update(caller: Caller, botId: string, input: UpdateBotInput): Promise<BotView> {
    try {
      await inTransaction(this.deps.sql, async (client) => {
        await lockManagedBot(client, caller, botId);
        const current = (await loadBot(client, botId))!;
        const changes: Record<string, unknown> = {};
        if (input.username !== undefined && input.username !== current.username) changes.username = input.username;
        if (input.displayName !== undefined && input.displayName !== current.display_name) changes.displayName = input.displayName;
        if (input.description !== undefined && input.description !== current.description) changes.description = input.description;
        if (input.avatarUrl !== undefined && input.avatarUrl !== current.avatar_url) changes.avatarUrl = input.avatarUrl;
        if (Object.keys(changes).length === 0) return false;
        const now = this.deps.clock.now();
        await affected(
          client,
          chatDb
            .updateTable('bots')
            .set({
              username: input.username ?? current.username,
              description: input.description !== undefined ? input.description : current.description,
              updated_at: now,
            })
            .where('id', '=', botId),
        );
        await affected(
          client,
          chatDb
            .updateTable('accounts')
            .set({
              display_name: input.displayName ?? current.display_name,
              avatar_url: input.avatarUrl !== undefined ? input.avatarUrl : current.avatar_url,
              updated_at: now,
            })
            .where('id', '=', current.account_id),
        );
        await emit(client, 'bot.updated', { botId, updatedBy: caller.accountId, changes }, accountsAudience([caller.accountId]));
        return true;
      });
    } catch (err) {
      if (usernameConflict(err)) throw botErrors.usernameTaken(input.username!);
      throw err;
    }
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
      const deleted = await firstRow(
        client,
        chatDb
          .updateTable('bots')
          .set({ deleted_at: now, updated_at: now, webhook_url: null, webhook_secret: null })
          .where('id', '=', botId)
          .returning('account_id'),
      );
      const account = deleted!.account_id;
      await affected(client, chatDb.deleteFrom('bot_updates').where('bot_id', '=', botId));
      await affected(client, chatDb.deleteFrom('bot_room_settings').where('bot_id', '=', botId));
      const before = await rows(client, chatDb.selectFrom('accounts').select('status').where('id', '=', account).forUpdate());
      await affected(client, chatDb.updateTable('accounts').set({ status: 'DEACTIVATED', updated_at: now }).where('id', '=', account));
      const audience = accountsAudience([caller.accountId]);
      await emit(client, 'bot.deleted', { botId, accountId: account, deletedBy: caller.accountId }, audience);
      if (before[0]?.status !== 'DEACTIVATED') {
        await emit(client, 'account.status_changed', { accountId: account, from: before[0]?.status ?? null, to: 'DEACTIVATED' }, audience);
      }
      return account;
    });
    await this.deps.accounts.invalidate(accountId);
    await this.deps.waiters.notify([botId]);
    return { botId, status: 'deleted' };
  }

  /** A new token with the same id part; the old one fails from the commit on, long polls made with it included. */
  async regenerateToken(caller: Caller, botId: string): Promise<{ botId: string; token: string }> {
    const token = await inTransaction(this.deps.sql, async (client) => {
      await lockManagedBot(client, caller, botId);
      const account = await firstRow(
        client,
        chatDb.selectFrom('bots as b').innerJoin('accounts as a', 'a.id', 'b.account_id').select('a.bot_api_id').where('b.id', '=', botId),
      );
      const token = newBotToken(account!.bot_api_id);
      await affected(
        client,
        chatDb
          .updateTable('bots')
          .set({ token_hash: tokenHash(token), updated_at: this.deps.clock.now() })
          .where('id', '=', botId),
      );
      await emit(client, 'bot.token_regenerated', { botId, regeneratedBy: caller.accountId }, accountsAudience([caller.accountId]));
      return token;
    });
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
    await inTransaction(this.deps.sql, async (client) => {
      const membership = await membershipOf(client, caller, roomId, true);
      refuseFixedType(membership, 'switch a bot to read every message (a bot reads every message of a private room)');
      requireManager(membership, "switch a bot's read-all");
      const member = await firstRow(
        client,
        chatDb.selectFrom('room_members').select('room_id').where('room_id', '=', roomId).where('account_id', '=', bot.account_id),
      );
      if (!member) throw botErrors.notInRoom();
      const setting = await firstRow(
        client,
        chatDb.selectFrom('bot_room_settings').select('read_all').where('bot_id', '=', botId).where('room_id', '=', roomId),
      );
      if ((setting?.read_all ?? false) === readAll) return false;
      await affected(
        client,
        chatDb
          .insertInto('bot_room_settings')
          .values({ bot_id: botId, room_id: roomId, read_all: readAll, updated_at: this.deps.clock.now() })
          .onConflict((oc) =>
            oc
              .columns(['bot_id', 'room_id'])
              .doUpdateSet((eb) => ({ read_all: eb.ref('excluded.read_all'), updated_at: eb.ref('excluded.updated_at') })),
          ),
      );
      await emit(
        client,
        'bot.read_all_changed',
        { botId, botAccountId: bot.account_id, roomId, readAll, changedBy: caller.accountId },
        roomAudience(roomId),
      );
      return true;
    });
    return { botId, roomId, readAll };
  }
}
