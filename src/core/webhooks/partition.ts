// A webhook of one workspace environment (a partition), read for a change: a webhook of another partition is 404.
import type { Queryable } from '../../platform/db/queryable.js';
import type { WebhookErrorFactory } from './input-checks.js';
import type { SealedSecret, ScheduledAttempt, WebhookPartition, WebhookRow } from './rows.js';
import { webhookWithSecret } from './webhook-queries.js';

/** A changed row and the delivery attempts to put on the queue once the transaction has committed. */
export interface Scheduled<T> {
  value: T;
  attempts: ScheduledAttempt[];
}

/** The webhook's row with its sealed secret, which only the service opens. */
export type SealedRow = WebhookRow & SealedSecret;

export async function loadWebhook(db: Queryable, part: WebhookPartition, id: string, errors: WebhookErrorFactory): Promise<SealedRow> {
  const row = await webhookWithSecret(db, part, id);
  if (!row) throw errors.webhookNotFound();
  return row;
}

/** The webhook without its sealed secret. */
export async function getWebhook(db: Queryable, part: WebhookPartition, id: string, errors: WebhookErrorFactory): Promise<WebhookRow> {
  const { secret_ciphertext: _sealed, ...row } = await loadWebhook(db, part, id, errors);
  return row;
}
