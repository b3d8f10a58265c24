// Installing and removing a bot's webhook, shared by the administration API (POST /api/v1/bots/{id}/webhook,
// POST /api/v1/webhooks) and the Bot API (setWebhook, deleteWebhook). A change resets the delivery state, wakes the
// bot's long polls (which then answer 409, or go on polling after a removal) and asks for delivery.
import { inTransaction, type SqlClient } from '../../platform/db/sql.js';
import { type Audience, emit } from '../events/emit.js';
import type { BotDeps } from './deps.js';
import { updateKinds } from './rows.js';
import { dropPendingUpdates, lockHadWebhook, writeWebhook } from './webhook-queries.js';

export interface WebhookChange {
  /** null removes the webhook. */
  url: string | null;
  secret?: string | null;
  maxConnections?: number | null;
  /** The receiver's certificate or CA (PEM) uploaded with setWebhook; absent or null: none. */
  certificate?: string | null;
  /** Absent: as it was; empty: every kind. Kinds this server does not produce are left out. */
  allowedUpdates?: string[];
  dropPendingUpdates?: boolean;
}

export interface WebhookChanged {
  /** Whether a webhook was set before the change. */
  hadWebhook: boolean;
}

/** Applies the change to the (locked, live) bot inside the caller's transaction; emits its event. */
export async function changeWebhook(
  client: SqlClient,
  botId: string,
  change: WebhookChange,
  actor: string,
  audience: Audience,
): Promise<WebhookChanged> {
  const hadWebhook = await lockHadWebhook(client, botId);
  const allowed =
    change.allowedUpdates === undefined ? undefined : change.allowedUpdates.filter((k) => (updateKinds as string[]).includes(k));
  await writeWebhook(client, botId, {
    url: change.url,
    secret: change.secret ?? null,
    maxConnections: change.maxConnections ?? null,
    certificate: change.certificate ?? null,
    allowedUpdates: allowed,
  });
  if (change.dropPendingUpdates) await dropPendingUpdates(client, botId);
  if (change.url !== null) {
    await emit(
      client,
      'bot.webhook_set',
      { botId, url: change.url, changedBy: actor, droppedPending: change.dropPendingUpdates === true },
      audience,
    );
  } else if (hadWebhook || change.dropPendingUpdates) {
    await emit(client, 'bot.webhook_removed', { botId, changedBy: actor, droppedPending: change.dropPendingUpdates === true }, audience);
  }
  return { hadWebhook };
}

/**
 * What follows a committed change: long polls look again, deliveries start. The change cleared the failure count,
 * so the backoff starts afresh: a retry still waiting for the old URL's backoff is moved to now.
 */
export async function afterWebhookChange(deps: BotDeps, botId: string, url: string | null): Promise<void> {
  await deps.waiters.notify([botId]);
  if (url !== null) await deps.deliveries.restart(botId);
}

/** guard runs first in the transaction: it locks the bot and refuses when it is gone or no longer the caller's. */
export async function changeWebhookNow(
  deps: BotDeps,
  botId: string,
  change: WebhookChange,
  actor: string,
  audience: Audience,
  guard: (client: SqlClient) => Promise<void>,
): Promise<WebhookChanged> {
  const result = await inTransaction(deps.sql, async (client) => {
    await guard(client);
    return changeWebhook(client, botId, change, actor, audience);
  });
  await afterWebhookChange(deps, botId, change.url);
  return result;
}
