// getUpdates: confirm by offset, then answer the pending updates, oldest first; with a timeout and nothing pending,
// wait until the outbox relay (on any node) wakes this bot, the timeout passes (capped by
// BOT_LONG_POLL_MAX_SECONDS), or the client goes away. After each wake the token and the webhook are checked again:
// a regenerated token or a deleted bot ends the poll with 401, a webhook set meanwhile with 409, and a getUpdates of
// the same bot started meanwhile (another instance of the bot) with 409 too (updates/pollers.ts).
import type { SqlPool } from '../../../platform/db/sql.js';
import { isUuid } from '../../../platform/ids.js';
import { updateKinds } from '../rows.js';
import type { BotPollers, Poll } from '../updates/pollers.js';
import type { UpdateWaiters } from '../updates/waiters.js';
import type { BotContext, BotPrincipal } from './context.js';
import { botApiErrors } from './errors.js';
import { liveBotWebhook, setAllowedUpdates } from './bot-queries.js';
import { confirmBelow, confirmThrough, keepLast, pendingUpdates } from './update-queries.js';

export interface UpdatesInput {
  offset?: number | string;
  limit?: number;
  timeout?: number;
  allowed_updates?: string[];
}

const terminated = () => botApiErrors.conflict('terminated by other getUpdates request; make sure that only one bot instance is running');
const webhookActive = () =>
  botApiErrors.conflict("can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first");

export class BotUpdates {
  constructor(
    private readonly sql: SqlPool,
    private readonly waiters: UpdateWaiters,
    private readonly maxWaitSeconds: number,
    private readonly pollers: BotPollers,
  ) {}

  /** The bot as it is now: 401 when its token changed or it was deleted, 409 while a webhook is set. */
  private async recheck(bot: BotPrincipal): Promise<void> {
    const current = await liveBotWebhook(this.sql, bot.id, bot.tokenHash);
    if (!current) throw botApiErrors.unauthorized();
    if (current.webhook_url !== null) throw webhookActive();
  }

  /** Forgets what the offset confirms: ids below it, the last -offset kept when negative, up to a named update. */
  private async confirm(botId: string, offset: number | string | undefined): Promise<void> {
    if (offset === undefined) return;
    if (typeof offset === 'string' && isUuid(offset)) {
      await confirmThrough(this.sql, botId, offset.toLowerCase());
      return;
    }
    const n = Number(offset);
    if (!Number.isSafeInteger(n) || n === 0) return;
    if (n > 0) await confirmBelow(this.sql, botId, n);
    else {
      // the last -n updates stay
      await keepLast(this.sql, botId, -n);
    }
  }

  private async read(botId: string, limit: number): Promise<unknown[]> {
    return pendingUpdates(this.sql, botId, limit);
  }

  async get(bot: BotPrincipal, input: UpdatesInput, ctx: BotContext): Promise<unknown[]> {
    await this.recheck(bot);
    if (input.allowed_updates !== undefined) {
      const kinds = input.allowed_updates.filter((k) => (updateKinds as string[]).includes(k));
      await setAllowedUpdates(this.sql, bot.id, kinds.length === 0 ? null : kinds);
    }
    const limit = input.limit ?? 100;
    const waitMs = Math.min(input.timeout ?? 0, this.maxWaitSeconds) * 1000;
    const poll = await this.pollers.begin(bot.id, waitMs);
    try {
      await this.confirm(bot.id, input.offset);
      if (waitMs === 0) return await this.read(bot.id, limit);
      return await this.wait(bot, limit, waitMs, poll, ctx);
    } finally {
      await poll.end();
    }
  }

  private async wait(bot: BotPrincipal, limit: number, waitMs: number, poll: Poll, ctx: BotContext): Promise<unknown[]> {
    const deadline = Date.now() + waitMs;
    // Registered before the first read, so an update committed between the read and the wait wakes it.
    const waiter = this.waiters.register(bot.id);
    const off = ctx.onDisconnect(() => waiter.interrupt());
    try {
      for (;;) {
        const updates = await this.read(bot.id, limit);
        if (updates.length > 0) return updates;
        const left = deadline - Date.now();
        if (left <= 0) return [];
        if ((await waiter.until(left)) === 'closed') return [];
        await this.recheck(bot);
        if (!(await poll.current())) throw terminated();
      }
    } finally {
      off();
      waiter.cancel();
    }
  }
}
