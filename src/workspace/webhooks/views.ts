// The workspace API's (convention B) view of webhooks and deliveries.
import type { components } from '../../../generated/types/workspace.js';
import type { DeliveryRow, WebhookRow } from '../../core/webhooks/rows.js';
import type { SendSummary } from '../../core/webhooks/service.js';

type Schemas = components['schemas'];

export function webhookView(row: WebhookRow): Schemas['Webhooks.Webhook'] {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    events: row.events as Schemas['Webhooks.WebhookEvent'][],
    description: row.description,
    headers: row.headers,
    status: row.status,
    paused_reason: row.paused_reason,
    environment: row.environment as Schemas['Webhooks.WebhookEnvironment'],
    secret_last_four: row.secret_last_four,
    consecutive_failures: row.consecutive_failures,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function sendResultView(s: SendSummary): Schemas['Webhooks.SendResult'] {
  return {
    delivery_id: s.deliveryId,
    event_id: s.eventId,
    ok: s.ok,
    status: s.status,
    body: s.body,
    latency_ms: s.latencyMs,
    error: s.error,
  };
}

export function deliveryView(row: DeliveryRow): Schemas['Webhooks.Delivery'] {
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    kind: row.kind,
    event: row.event,
    event_id: row.event_id,
    status: row.status,
    attempt: row.attempt_count,
    response_status: row.response_status,
    latency_ms: row.latency_ms,
    response_excerpt: row.response_excerpt,
    error: row.error,
    created_at: row.created_at.toISOString(),
    last_attempt_at: row.last_attempt_at?.toISOString() ?? null,
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    replay_of: row.replay_of,
  };
}
