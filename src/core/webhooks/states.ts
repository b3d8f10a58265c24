// A webhook's state by hand: paused, resumed (its held deliveries due again), disabled for good, or tested with a
// signed delivery sent at once (a 2xx verifies an Unverified webhook).
import type { Queryable } from '../../platform/db/queryable.js';
import type { WebhookEngine } from './engine.js';
import { isWebhookEvent, sampleData } from './events.js';
import type { WebhookErrorFactory } from './input-checks.js';
import { getWebhook, loadWebhook, type Scheduled } from './partition.js';
import { webhookOutbox, type WebhookPartition, type WebhookRow } from './rows.js';
import { logImmediate, summary, type SendSummary } from './send-now.js';
import {
  cancelOpenDeliveries,
  disableWebhook,
  pauseWebhook,
  releaseHeldDeliveries,
  resumeWebhook,
  verifyWebhook,
} from './webhook-queries.js';

export class WebhookStates {
  constructor(
    private readonly engine: WebhookEngine,
    private readonly errors: WebhookErrorFactory,
  ) {}

  private now(): Date {
    return this.engine.clock.now();
  }

  async pause(db: Queryable, part: WebhookPartition, id: string): Promise<WebhookRow> {
    const now = this.now();
    const paused = await pauseWebhook(db, part, id, now);
    if (paused) {
      await webhookOutbox(db, 'webhook.paused', paused, { reason: 'manual' });
      return paused;
    }
    const current = await getWebhook(db, part, id, this.errors);
    if (current.status === 'Disabled') throw this.errors.disabled();
    return current;
  }

  /**
   * Active again (Unverified when its URL has never answered 2xx: a pause does not verify it), failures reset, its
   * held deliveries due now.
   */
  async resume(db: Queryable, part: WebhookPartition, id: string): Promise<Scheduled<WebhookRow>> {
    const now = this.now();
    const row = await resumeWebhook(db, part, id, now);
    if (!row) {
      const current = await getWebhook(db, part, id, this.errors);
      if (current.status === 'Disabled') throw this.errors.disabled();
      return { value: current, attempts: [] };
    }
    const released = await releaseHeldDeliveries(db, id, now);
    await webhookOutbox(db, 'webhook.resumed', row, { released: released.length });
    return { value: row, attempts: released.map((d) => ({ id: d.id, round: d.round, attempt: d.attempt_count + 1, dueAt: now })) };
  }

  /** Disabled for good: its pending and held deliveries are cancelled (one in flight finishes). */
  async disable(db: Queryable, part: WebhookPartition, id: string): Promise<WebhookRow> {
    const now = this.now();
    const row = await disableWebhook(db, part, id, now);
    if (!row) return getWebhook(db, part, id, this.errors);
    const cancelled = await cancelOpenDeliveries(db, id, now);
    await webhookOutbox(db, 'webhook.disabled', row, { cancelled });
    return row;
  }

  /** Sends a signed delivery of `event` now (logged as a test); a 2xx makes an Unverified webhook Active. */
  async test(
    db: Queryable,
    part: WebhookPartition,
    id: string,
    input: { event: string; payload?: Record<string, unknown> },
  ): Promise<SendSummary> {
    if (!isWebhookEvent(input.event)) throw this.errors.invalid('body.event', 'is not an event of the catalogue');
    const webhook = await loadWebhook(db, part, id, this.errors);
    if (webhook.status === 'Disabled') throw this.errors.disabled();
    const result = await this.engine.sendNow({
      webhookId: id,
      workspaceId: part.workspaceId,
      url: webhook.url,
      secret: this.engine.box.open(webhook.secret_ciphertext, id),
      headers: webhook.headers,
      event: input.event,
      data: input.payload ?? sampleData(input.event, this.now()),
    });
    await logImmediate(this.engine, db, webhook, 'test', input.event, result);
    if (result.outcome.ok) {
      const verified = await verifyWebhook(db, id, this.now());
      if (verified?.previous_status === 'Unverified') await webhookOutbox(db, 'webhook.verified', verified);
    }
    return summary(result);
  }
}
