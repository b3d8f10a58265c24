// A ping or test delivery sent at once, outside the queue, and its line in the delivery log.
import type { Queryable } from '../../platform/db/queryable.js';
import { insertSentDelivery } from './delivery-queries.js';
import type { ImmediateResult, WebhookEngine } from './engine.js';
import { pingEvent } from './events.js';
import type { DeliveryKind, WebhookPartition, WebhookRow } from './rows.js';

export interface SendSummary {
  deliveryId: string;
  /** The evt_ id sent as the envelope's id and X-SVC-Delivery. */
  eventId: string;
  ok: boolean;
  status: number | null;
  body: string;
  latencyMs: number;
  error: string | null;
}

export function summary(result: ImmediateResult): SendSummary {
  const o = result.outcome;
  return {
    deliveryId: result.deliveryId,
    eventId: result.eventId,
    ok: o.ok,
    status: o.status,
    body: o.excerpt,
    latencyMs: o.latencyMs,
    error: o.error,
  };
}

/** Logs a ping or test delivery that was sent at once. */
export async function logImmediate(
  engine: WebhookEngine,
  db: Queryable,
  webhook: Pick<WebhookRow, 'id' | 'workspace_id' | 'environment'>,
  kind: DeliveryKind,
  event: string,
  result: ImmediateResult,
): Promise<void> {
  const o = result.outcome;
  await insertSentDelivery(db, {
    id: result.deliveryId,
    webhook_id: webhook.id,
    workspace_id: webhook.workspace_id,
    environment: webhook.environment,
    kind,
    event,
    event_id: result.eventId,
    envelope: result.envelope,
    status: o.ok ? 'succeeded' : 'failed',
    attempt_count: 1,
    last_attempt_at: result.at,
    response_status: o.status,
    latency_ms: o.latencyMs,
    response_excerpt: o.excerpt,
    error: o.ok ? null : (o.error ?? `HTTP ${o.status}`),
    created_at: result.at,
    completed_at: engine.clock.now(),
  });
}

/** The ping a new or moved webhook gets, naming the webhook and its events. */
export function pingNow(
  engine: WebhookEngine,
  id: string,
  part: WebhookPartition,
  url: string,
  secret: string,
  headers: Record<string, string>,
  name: string,
  events: string[],
): Promise<ImmediateResult> {
  return engine.sendNow({
    webhookId: id,
    workspaceId: part.workspaceId,
    url,
    secret,
    headers,
    event: pingEvent,
    data: { webhook_id: id, name, events },
  });
}
