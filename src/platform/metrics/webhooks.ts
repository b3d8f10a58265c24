// Webhook delivery attempts (workspace webhooks and bot webhooks), by outcome and attempt number.
import { Counter } from 'prom-client';
import { metricsRegistry } from './registry.js';

const attempts = new Counter({
  name: 'platform_webhook_deliveries_total',
  help: 'Webhook delivery attempts, by kind (workspace, bot), outcome (succeeded, failed) and attempt number (10+ above nine)',
  labelNames: ['kind', 'outcome', 'attempt'] as const,
  registers: [metricsRegistry],
});

/** Counts one attempt that reached the receiver or failed trying. */
export function countWebhookAttempt(kind: 'workspace' | 'bot', succeeded: boolean, attempt: number): void {
  attempts.inc({ kind, outcome: succeeded ? 'succeeded' : 'failed', attempt: attempt >= 10 ? '10+' : String(attempt) });
}
