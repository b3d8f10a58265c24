// Statements over the webhooks and deliveries of one workspace environment (a partition): a webhook or delivery of
// another partition is never found.
import type { Queryable } from '../../platform/db/queryable.js';
import { firstRow } from '../../platform/db/typed.js';
import { coreDb } from '../tables.js';
import type { WebhookErrorFactory } from './input-checks.js';
import {
  deliveryColumns,
  webhookColumns,
  type DeliveryChecked,
  type SealedSecret,
  type ScheduledAttempt,
  type WebhookChecked,
  type WebhookPartition,
  type WebhookRow,
} from './rows.js';

/** A changed row and the delivery attempts to put on the queue once the transaction has committed. */
export interface Scheduled<T> {
  value: T;
  attempts: ScheduledAttempt[];
}

/** The partition's webhooks with the row's columns. */
export const webhooksOf = (part: WebhookPartition) =>
  coreDb
    .selectFrom('webhooks')
    .select(webhookColumns)
    .$narrowType<WebhookChecked>()
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment);

/** The partition's deliveries with the row's columns. */
export const deliveriesOf = (part: WebhookPartition) =>
  coreDb
    .selectFrom('webhook_deliveries')
    .select(deliveryColumns)
    .$narrowType<DeliveryChecked>()
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment);

/** An update of one webhook of the partition. */
export function changeOf(part: WebhookPartition, id: string) {
  return coreDb
    .updateTable('webhooks')
    .where('id', '=', id)
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment);
}

/** The webhook's row with its sealed secret, which only the service opens. */
export type SealedRow = WebhookRow & SealedSecret;

export async function loadWebhook(db: Queryable, part: WebhookPartition, id: string, errors: WebhookErrorFactory): Promise<SealedRow> {
  const row = await firstRow(db, webhooksOf(part).select('secret_ciphertext').$narrowType<SealedSecret>().where('id', '=', id));
  if (!row) throw errors.webhookNotFound();
  return row;
}

/** The webhook without its sealed secret. */
export async function getWebhook(db: Queryable, part: WebhookPartition, id: string, errors: WebhookErrorFactory): Promise<WebhookRow> {
  const { secret_ciphertext: _sealed, ...row } = await loadWebhook(db, part, id, errors);
  return row;
}
