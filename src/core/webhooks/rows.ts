// Rows of webhooks and webhook_deliveries as the services read them, and the outbox events of webhook changes.
import type { Queryable } from '../../platform/db/queryable.js';
import { writeInternalEvent, type WebhookTopic } from '../events/internal-topics.js';

export type WebhookStatus = 'Active' | 'Unverified' | 'Paused' | 'Disabled';
export type DeliveryStatus = 'pending' | 'sending' | 'succeeded' | 'failed' | 'held' | 'cancelled';
export type DeliveryKind = 'event' | 'ping' | 'test' | 'replay';

/** The slice of webhooks a key sees: its workspace and environment. */
export interface WebhookPartition {
  workspaceId: string;
  environment: string;
}

export interface WebhookRow {
  id: string;
  workspace_id: string;
  environment: string;
  name: string;
  url: string;
  events: string[];
  description: string | null;
  headers: Record<string, string>;
  secret_last_four: string;
  status: WebhookStatus;
  paused_reason: 'manual' | 'failures' | null;
  consecutive_failures: number;
  created_at: Date;
  updated_at: Date;
}

export const webhookColumns =
  'id, workspace_id, environment, name, url, events, description, headers, secret_last_four, status, paused_reason, consecutive_failures, created_at, updated_at';

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  kind: DeliveryKind;
  event: string;
  event_id: string;
  status: DeliveryStatus;
  attempt_count: number;
  round: number;
  response_status: number | null;
  latency_ms: number | null;
  response_excerpt: string | null;
  error: string | null;
  created_at: Date;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  replay_of: string | null;
}

export const deliveryColumns =
  'id, webhook_id, kind, event, event_id, status, attempt_count, round, response_status, latency_ms, response_excerpt, error, created_at, last_attempt_at, next_attempt_at, replay_of';

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
