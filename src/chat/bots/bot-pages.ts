// Pages of the bots a caller manages, and of their webhooks: oldest first, keyset on (created_at, id); platform
// administrators see every live bot.
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import type { Caller } from '../base/context.js';
import { chatErrors } from '../base/errors.js';
import type { Page } from '../base/paging.js';
import { isCursorInstant, isCursorUuid } from '../rooms/cursors.js';
import { botPage, type BotRow } from './bot-queries.js';
import type { BotDeps } from './deps.js';
import { botView, webhookView, type BotView, type WebhookView } from './rows.js';

export interface PageQuery {
  limit?: number;
  cursor?: string;
}

export interface WebhookListItem extends WebhookView {
  botId: string;
  pendingUpdateCount: number;
}

const webhookListCursorName = 'and b.webhook_url is not null';

async function page(
  deps: BotDeps,
  caller: Caller,
  query: PageQuery,
  webhooksOnly: boolean,
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
  const found = await botPage(deps.sql, {
    webhooksOnly,
    owner: caller.platformAdmin ? null : { moduleCode: caller.moduleCode, customerAccountId: caller.customerAccountId },
    after,
    limit: limit + 1,
  });
  const hasMore = found.length > limit;
  const rows = found.slice(0, limit);
  const last = rows[rows.length - 1];
  return {
    rows,
    hasMore,
    nextCursor: hasMore && last ? encodeCursor({ a: last.created_at.toISOString(), i: last.id }, list) : null,
  };
}

export async function listBots(deps: BotDeps, caller: Caller, query: PageQuery): Promise<Page<BotView>> {
  const { rows, hasMore, nextCursor } = await page(deps, caller, query, false);
  return { items: rows.map(botView), hasMore, nextCursor };
}

export async function listBotWebhooks(deps: BotDeps, caller: Caller, query: PageQuery): Promise<Page<WebhookListItem>> {
  const { rows, hasMore, nextCursor } = await page(deps, caller, query, true);
  return { items: rows.map((r) => ({ botId: r.id, ...webhookView(r)!, pendingUpdateCount: r.pending })), hasMore, nextCursor };
}
