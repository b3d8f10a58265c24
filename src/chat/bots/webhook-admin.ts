// A bot's webhook through the administration API: POST /api/v1/bots/{id}/webhook installs or removes it with the
// caller's secret, POST /api/v1/webhooks installs it with a secret made here.
import type { Caller } from '../base/context.js';
import { chatErrors } from '../base/errors.js';
import { accountsAudience } from '../events/emit.js';
import { lockManagedBot, managedBot } from './access.js';
import { loadBot } from './bot-queries.js';
import type { WebhookListItem } from './bot-pages.js';
import type { BotDeps } from './deps.js';
import { webhookView, type UpdateKind } from './rows.js';
import { newWebhookSecret } from './tokens.js';
import { changeWebhookNow } from './webhooks.js';
import { webhookUrlProblem } from './webhook-url.js';

export interface WebhookInput {
  url: string | null;
  secretToken?: string;
  maxConnections?: number;
  allowedUpdates?: UpdateKind[];
  dropPendingUpdates?: boolean;
}

function checkUrl(deps: BotDeps, url: string | null, location: string): void {
  if (url === null) return;
  const problem = webhookUrlProblem(url, deps.webhookPolicy);
  if (problem) throw chatErrors.invalid(location, problem);
}

async function applyWebhook(deps: BotDeps, caller: Caller, botId: string, change: Parameters<typeof changeWebhookNow>[2]): Promise<void> {
  await changeWebhookNow(deps, botId, change, caller.accountId, accountsAudience([caller.accountId]), async (client) =>
    lockManagedBot(client, caller, botId),
  );
}

export async function setBotWebhook(deps: BotDeps, caller: Caller, botId: string, input: WebhookInput): Promise<void> {
  await managedBot(deps.sql, caller, botId);
  checkUrl(deps, input.url, 'body.url');
  await applyWebhook(deps, caller, botId, {
    url: input.url,
    secret: input.secretToken ?? null,
    maxConnections: input.maxConnections ?? null,
    ...(input.allowedUpdates !== undefined ? { allowedUpdates: input.allowedUpdates } : {}),
    dropPendingUpdates: input.dropPendingUpdates ?? false,
  });
}

export async function createBotWebhook(
  deps: BotDeps,
  caller: Caller,
  input: WebhookInput & { botId: string; url: string },
): Promise<WebhookListItem & { secret: string }> {
  await managedBot(deps.sql, caller, input.botId);
  checkUrl(deps, input.url, 'body.url');
  const secret = newWebhookSecret();
  await applyWebhook(deps, caller, input.botId, {
    url: input.url,
    secret,
    maxConnections: input.maxConnections ?? null,
    ...(input.allowedUpdates !== undefined ? { allowedUpdates: input.allowedUpdates } : {}),
    dropPendingUpdates: input.dropPendingUpdates ?? false,
  });
  const bot = (await loadBot(deps.sql, input.botId))!;
  return { botId: bot.id, ...webhookView(bot)!, pendingUpdateCount: bot.pending, secret };
}
