// Rows of webhooks and webhook_deliveries as the services read them, and the outbox events of webhook changes.
import type { Selectable } from 'kysely';
import type { Queryable } from '../../platform/db/queryable.js';
import type { CoreTables } from '../tables.js';
import { writeInternalEvent, type WebhookTopic } from '../events/internal-topics.js';

export type WebhookStatus = 'Active' | 'Unverified' | 'Paused' | 'Disabled';
export type DeliveryStatus = 'pending' | 'sending' | 'succeeded' | 'failed' | 'held' | 'cancelled';
export type DeliveryKind = 'event' | 'ping' | 'test' | 'replay';

/** The slice of webhooks a key sees: its workspace and environment. */
export interface WebhookPartition {
  workspaceId: string;
  environment: string;
}

export const webhookColumns = [
  'id',
  'workspace_id',
  'environment',
  'name',
  'url',
  'events',
  'description',
  'headers',
  'secret_last_four',
  'status',
  'paused_reason',
  'consecutive_failures',
  'created_at',
  'updated_at',
] as const;

/** The values the table's checks allow, and the headers object the service stores (headersProblem checks it). */
export type WebhookChecked = { status: WebhookStatus; paused_reason: 'manual' | 'failures' | null; headers: Record<string, string> };

export type WebhookRow = Omit<Pick<Selectable<CoreTables['webhooks']>, (typeof webhookColumns)[number]>, keyof WebhookChecked> &
  WebhookChecked;

/** The sealed signing secret: node-postgres reads bytea as a Buffer. */
export type SealedSecret = { secret_ciphertext: Buffer };

export const deliveryColumns = [
  'id',
  'webhook_id',
  'kind',
  'event',
  'event_id',
  'status',
  'attempt_count',
  'round',
  'response_status',
  'latency_ms',
  'response_excerpt',
  'error',
  'created_at',
  'last_attempt_at',
  'next_attempt_at',
  'replay_of',
] as const;

/** The values the table's checks allow. */
export type DeliveryChecked = { kind: DeliveryKind; status: DeliveryStatus };

export type DeliveryRow = Omit<
  Pick<Selectable<CoreTables['webhook_deliveries']>, (typeof deliveryColumns)[number]>,
  keyof DeliveryChecked
> &
  DeliveryChecked;

/** A delivery attempt to put on the queue. */
export interface ScheduledAttempt {
  id: string;
  round: number;
  attempt: number;
  dueAt: Date;
}

/**
 * The outbox event of a webhook change, in the change's transaction. Webhooks concern no chat user: the audience is
 * an empty account list, so realtime fan-out delivers it to nobody while other consumers still see it.
 */
export async function webhookOutbox(
  db: Queryable,
  topic: WebhookTopic,
  row: Pick<WebhookRow, 'id' | 'workspace_id' | 'environment' | 'status'>,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await writeInternalEvent(db, topic, {
    audience: { kind: 'accounts', accountIds: [] },
    workspaceId: row.workspace_id,
    environment: row.environment,
    webhookId: row.id,
    status: row.status,
    ...extra,
  });
}
