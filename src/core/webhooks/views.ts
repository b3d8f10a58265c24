// The fields both key conventions show of a webhook, a delivery and a test send. Each interface adds what its
// convention asks for (the partner API's object names, its lower-case statuses) and types events and environments
// with its own generated enums.
import type { DeliveryRow, WebhookRow } from './rows.js';
import type { SendSummary } from './service.js';

/** A webhook's fields but its status, which the conventions spell differently. */
export function webhookFields<Event extends string, Environment extends string>(row: WebhookRow) {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    events: row.events as Event[],
    description: row.description,
    headers: row.headers,
    paused_reason: row.paused_reason,
    environment: row.environment as Environment,
    secret_last_four: row.secret_last_four,
    consecutive_failures: row.consecutive_failures,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function sendResultFields(s: SendSummary) {
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

export function deliveryFields(row: DeliveryRow) {
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
