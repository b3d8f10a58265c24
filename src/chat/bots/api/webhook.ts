// setWebhook, deleteWebhook and getWebhookInfo, as Telegram answers them.
import type { SqlClient } from '../../../platform/db/sql.js';
import { accountsAudience } from '../../events/emit.js';
import type { BotDeps } from '../deps.js';
import { updateKinds } from '../rows.js';
import { changeWebhookNow, type WebhookChange } from '../webhooks.js';
import { certificateProblem } from '../delivery/tls.js';
import { webhookUrlProblem } from '../webhook-url.js';
import type { BotPrincipal } from './context.js';
import { botApiErrors } from './errors.js';
import { lockBotOfToken, webhookInfoOf } from './bot-queries.js';

export interface SetWebhookInput {
  url: string;
  secret_token?: string;
  max_connections?: number;
  allowed_updates?: string[];
  drop_pending_updates?: boolean;
  certificate?: string;
}

export interface WebhookInfo {
  url: string;
  has_custom_certificate: boolean;
  pending_update_count: number;
  last_error_date?: number;
  last_error_message?: string;
  max_connections?: number;
  allowed_updates?: string[];
}

/** Locks the bot for the change; the token must still be its token. */
const guardOf = (bot: BotPrincipal) => async (client: SqlClient) => {
  const locked = await lockBotOfToken(client, bot.id, bot.tokenHash);
  if (!locked) throw botApiErrors.unauthorized();
};

async function change(deps: BotDeps, bot: BotPrincipal, webhook: WebhookChange) {
  return changeWebhookNow(deps, bot.id, webhook, bot.accountId, accountsAudience([bot.accountId]), guardOf(bot));
}

export async function setWebhook(deps: BotDeps, bot: BotPrincipal, input: SetWebhookInput): Promise<{ result: true; description: string }> {
  // Telegram: an empty url removes the webhook.
  if (input.url === '') return deleteWebhook(deps, bot, { drop_pending_updates: input.drop_pending_updates });
  const problem = webhookUrlProblem(input.url, deps.webhookPolicy);
  if (problem) throw botApiErrors.badRequest(`bad webhook: the URL ${problem}`);
  const certificate = input.certificate === undefined || input.certificate === '' ? null : input.certificate;
  const badCertificate = certificate === null ? null : certificateProblem(certificate);
  if (badCertificate) throw botApiErrors.badRequest(`bad webhook: ${badCertificate}`);
  await change(deps, bot, {
    url: input.url,
    secret: input.secret_token ?? null,
    maxConnections: input.max_connections ?? null,
    certificate,
    ...(input.allowed_updates !== undefined ? { allowedUpdates: input.allowed_updates } : {}),
    dropPendingUpdates: input.drop_pending_updates ?? false,
  });
  return { result: true, description: 'Webhook was set' };
}

export async function deleteWebhook(
  deps: BotDeps,
  bot: BotPrincipal,
  input: { drop_pending_updates?: boolean | undefined },
): Promise<{ result: true; description: string }> {
  const { hadWebhook } = await change(deps, bot, { url: null, dropPendingUpdates: input.drop_pending_updates ?? false });
  return { result: true, description: hadWebhook ? 'Webhook was deleted' : 'Webhook is already deleted' };
}

export async function webhookInfo(deps: BotDeps, bot: BotPrincipal): Promise<WebhookInfo> {
  const row = (await webhookInfoOf(deps.sql, bot.id))!;
  const info: WebhookInfo = { url: row.webhook_url ?? '', has_custom_certificate: row.has_certificate, pending_update_count: row.pending };
  if (row.webhook_last_error_at) {
    info.last_error_date = Math.floor(row.webhook_last_error_at.getTime() / 1000);
    info.last_error_message = row.webhook_last_error_message ?? '';
  }
  if (row.webhook_max_connections !== null) info.max_connections = row.webhook_max_connections;
  if (row.allowed_updates !== null) info.allowed_updates = row.allowed_updates.filter((k) => (updateKinds as string[]).includes(k));
  return info;
}
