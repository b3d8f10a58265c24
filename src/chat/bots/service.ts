// Bot administration: platform administrators create bots (each with an account of type BOT in the module and
// customer the body names); the accounts of that module and customer, and platform administrators, manage and
// delete them. Every change writes its event in its transaction (docs/events.md, "Bots").
import { inTransaction } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import { chatErrors } from '../base/errors.js';
import { accountsAudience, emit } from '../events/emit.js';
import type { Page } from '../base/paging.js';
import { lockManagedBot, managedBot } from './access.js';
import {
  botApiIdOf,
  deactivateAccount,
  deleteBotRoomSettings,
  insertBot,
  insertBotAccount,
  lockAccountStatus,
  moduleExists,
  setTokenHash,
  softDeleteBot,
  updateBotAccount,
  updateBotRow,
  type NewBot,
} from './admin-queries.js';
import { loadBot } from './bot-queries.js';
import { listBots, listBotWebhooks, type PageQuery, type WebhookListItem } from './bot-pages.js';
import type { BotDeps } from './deps.js';
import { botErrors } from './errors.js';
import { setRoomReadAll } from './read-all.js';
import { botView, type BotView } from './rows.js';
import { newBotToken, tokenHash } from './tokens.js';
import { createBotWebhook, setBotWebhook, type WebhookInput } from './webhook-admin.js';
import { dropPendingUpdates } from './webhook-queries.js';

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

const usernameConflict = (err: unknown): boolean =>
  (err as { code?: string; constraint?: string }).code === '23505' && (err as { constraint?: string }).constraint === 'bots_username';

export class BotAdminService {
  constructor(private readonly deps: BotDeps) {}

  list(caller: Caller, query: PageQuery): Promise<Page<BotView>> {
    return listBots(this.deps, caller, query);
  }

  listWebhooks(caller: Caller, query: PageQuery): Promise<Page<WebhookListItem>> {
    return listBotWebhooks(this.deps, caller, query);
  }

  async create(caller: Caller, input: CreateBotInput): Promise<{ bot: BotView; token: string }> {
    if (!(await moduleExists(this.deps.sql, input.moduleCode)))
      throw chatErrors.invalid('body.moduleCode', `names no module; create module "${input.moduleCode}" first`);
    const bot: NewBot = {
      botId: newId(),
      accountId: newId(),
      moduleCode: input.moduleCode,
      customerAccountId: input.customerAccountId,
      username: input.username,
      displayName: input.displayName,
      description: input.description ?? null,
      avatarUrl: input.avatarUrl ?? null,
      at: this.deps.clock.now(),
    };
    let token = '';
    try {
      await inTransaction(this.deps.sql, async (client) => {
        token = newBotToken(await insertBotAccount(client, bot));
        await insertBot(client, bot, tokenHash(token));
        await emit(
          client,
          'bot.created',
          {
            botId: bot.botId,
            accountId: bot.accountId,
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
    return { bot: botView((await loadBot(this.deps.sql, bot.botId))!), token };
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
        if (Object.keys(changes).length === 0) return;
        const now = this.deps.clock.now();
        await updateBotRow(client, botId, {
          username: input.username ?? current.username,
          description: input.description !== undefined ? input.description : current.description,
          at: now,
        });
        await updateBotAccount(client, current.account_id, {
          displayName: input.displayName ?? current.display_name,
          avatarUrl: input.avatarUrl !== undefined ? input.avatarUrl : current.avatar_url,
          at: now,
        });
        await emit(client, 'bot.updated', { botId, updatedBy: caller.accountId, changes }, accountsAudience([caller.accountId]));
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
      const account = await softDeleteBot(client, botId, now);
      await dropPendingUpdates(client, botId);
      await deleteBotRoomSettings(client, botId);
      const before = await lockAccountStatus(client, account);
      await deactivateAccount(client, account, now);
      const audience = accountsAudience([caller.accountId]);
      await emit(client, 'bot.deleted', { botId, accountId: account, deletedBy: caller.accountId }, audience);
      if (before !== 'DEACTIVATED') {
        await emit(client, 'account.status_changed', { accountId: account, from: before ?? null, to: 'DEACTIVATED' }, audience);
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
      const token = newBotToken(await botApiIdOf(client, botId));
      await setTokenHash(client, botId, tokenHash(token), this.deps.clock.now());
      await emit(client, 'bot.token_regenerated', { botId, regeneratedBy: caller.accountId }, accountsAudience([caller.accountId]));
      return token;
    });
    await this.deps.waiters.notify([botId]);
    return { botId, token };
  }

  async setWebhook(caller: Caller, botId: string, input: WebhookInput): Promise<BotView> {
    await setBotWebhook(this.deps, caller, botId, input);
    return this.get(caller, botId);
  }

  /** POST /api/v1/webhooks: the same installation with a secret made here, answered once. */
  createWebhook(caller: Caller, input: WebhookInput & { botId: string; url: string }): Promise<WebhookListItem & { secret: string }> {
    return createBotWebhook(this.deps, caller, input);
  }

  /** Read-all in one room (read-all.ts). */
  setRoomReadAll(
    caller: Caller,
    botId: string,
    roomId: string,
    readAll: boolean,
  ): Promise<{ botId: string; roomId: string; readAll: boolean }> {
    return setRoomReadAll(this.deps, caller, botId, roomId, readAll);
  }
}
