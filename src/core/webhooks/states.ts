// A webhook's state by hand: paused, resumed (its held deliveries due again), disabled for good, or tested with a
// signed delivery sent at once (a 2xx verifies an Unverified webhook).
import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/queryable.js';
import { affected, firstRow, rows } from '../../platform/db/typed.js';
import { coreDb } from '../tables.js';
import type { WebhookEngine } from './engine.js';
import { isWebhookEvent, sampleData } from './events.js';
import type { WebhookErrorFactory } from './input-checks.js';
import { changeOf, getWebhook, loadWebhook, type Scheduled } from './partition.js';
import { webhookColumns, webhookOutbox, type WebhookChecked, type WebhookPartition, type WebhookRow, type WebhookStatus } from './rows.js';
import { logImmediate, summary, type SendSummary } from './send-now.js';

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
    const paused = await firstRow(
      db,
      changeOf(part, id)
        .set({ status: 'Paused', paused_reason: 'manual', paused_at: now, updated_at: now })
        .where('status', 'in', ['Active', 'Unverified'])
        .returning(webhookColumns)
        .$narrowType<WebhookChecked>(),
    );
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
    const row = await firstRow(
      db,
      changeOf(part, id)
        .set({
          status: sql<string>`case when verified then 'Active' else 'Unverified' end`,
          paused_reason: null,
          paused_at: null,
          consecutive_failures: 0,
          updated_at: now,
        })
        .where('status', '=', 'Paused')
        .returning(webhookColumns)
        .$narrowType<WebhookChecked>(),
    );
    if (!row) {
      const current = await getWebhook(db, part, id, this.errors);
      if (current.status === 'Disabled') throw this.errors.disabled();
      return { value: current, attempts: [] };
    }
    const released = await rows(
      db,
      coreDb
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', next_attempt_at: now })
        .where('webhook_id', '=', id)
        .where('status', '=', 'held')
        .returning(['id', 'round', 'attempt_count']),
    );
    await webhookOutbox(db, 'webhook.resumed', row, { released: released.length });
    return { value: row, attempts: released.map((d) => ({ id: d.id, round: d.round, attempt: d.attempt_count + 1, dueAt: now })) };
  }

  /** Disabled for good: its pending and held deliveries are cancelled (one in flight finishes). */
  async disable(db: Queryable, part: WebhookPartition, id: string): Promise<WebhookRow> {
    const now = this.now();
    const row = await firstRow(
      db,
      changeOf(part, id)
        .set({ status: 'Disabled', paused_reason: null, disabled_at: now, updated_at: now, notice_pending: false })
        .where('status', '<>', 'Disabled')
        .returning(webhookColumns)
        .$narrowType<WebhookChecked>(),
    );
    if (!row) return getWebhook(db, part, id, this.errors);
    const cancelled = await affected(
      db,
      coreDb
        .updateTable('webhook_deliveries')
        .set({ status: 'cancelled', next_attempt_at: null, completed_at: now, error: 'cancelled: the webhook was disabled' })
        .where('webhook_id', '=', id)
        .where('status', 'in', ['pending', 'held']),
    );
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
      // The status before the update (the CTE reads it under the row lock), to tell whether this verified it.
      const verified = await firstRow(
        db,
        coreDb
          .with('before', (qb) => qb.selectFrom('webhooks').select('status').where('id', '=', id).forUpdate())
          .updateTable('webhooks as w')
          .from('before')
          .set({
            status: sql<string>`case when w.status = 'Unverified' then 'Active' else w.status end`,
            verified: true,
            consecutive_failures: sql<number>`case when w.status = 'Unverified' then 0 else w.consecutive_failures end`,
            updated_at: sql<Date>`case when w.status = 'Unverified' then ${this.now()}::timestamptz else w.updated_at end`,
          })
          .where('w.id', '=', id)
          .where((eb) => eb.not(eb.ref('w.verified')))
          .returning([...webhookColumns.map((c) => `w.${c}` as const), 'before.status as previous_status'])
          .$narrowType<WebhookChecked & { previous_status: WebhookStatus }>(),
      );
      if (verified?.previous_status === 'Unverified') await webhookOutbox(db, 'webhook.verified', verified);
    }
    return summary(result);
  }
}
