// The delivery log of a partition and what its reader may do with a delivery: send it again (resend, the same id in
// a new round) or send its envelope as a new event (replay).
import type { AppError } from '../../platform/http/app-error.js';
import { newId } from '../../platform/ids.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { deliveriesPage, deliveryById, insertReplay, replayableEnvelope, resendDelivery, webhookStatus } from './delivery-queries.js';
import type { WebhookEngine } from './engine.js';
import { newEventId, replayEnvelopeText } from './events.js';
import type { WebhookErrorFactory } from './input-checks.js';
import { cursorId, pageOf, partitionList, type Page } from './pages.js';
import type { Scheduled } from './partition.js';
import type { DeliveryRow, DeliveryStatus, WebhookPartition } from './rows.js';

export class WebhookDeliveries {
  constructor(
    private readonly engine: WebhookEngine,
    private readonly errors: WebhookErrorFactory,
  ) {}

  private now(): Date {
    return this.engine.clock.now();
  }

  /** Deliveries of the partition, newest first; of one webhook when `webhookId` is given (404 when it is not one). */
  async deliveries(
    db: Queryable,
    part: WebhookPartition,
    query: { webhookId?: string; limit?: number; cursor?: string; status?: DeliveryStatus },
  ): Promise<Page<DeliveryRow>> {
    const limit = query.limit ?? 50;
    const list = partitionList('webhook_deliveries', part, query);
    const before = query.cursor === undefined ? undefined : cursorId(query.cursor, list, this.errors);
    const found = await deliveriesPage(db, part, { webhookId: query.webhookId, status: query.status, before, limit });
    return pageOf(found, limit, list);
  }

  async delivery(db: Queryable, part: WebhookPartition, deliveryId: string, webhookId?: string): Promise<DeliveryRow> {
    const row = await deliveryById(db, part, deliveryId, webhookId);
    if (!row) throw this.errors.deliveryNotFound();
    return row;
  }

  /** Why a resend or replay found nothing to do: no such delivery, a Disabled webhook, or (resend) one in progress. */
  private async refusal(db: Queryable, part: WebhookPartition, deliveryId: string, webhookId: string | undefined): Promise<AppError> {
    const delivery = await this.delivery(db, part, deliveryId, webhookId);
    const webhook = await webhookStatus(db, delivery.webhook_id);
    if (webhook?.status === 'Disabled') return this.errors.disabled();
    return this.errors.inProgress();
  }

  /** The same delivery id again, in a new round of the retry schedule starting now. */
  async resend(db: Queryable, part: WebhookPartition, deliveryId: string, webhookId?: string): Promise<Scheduled<DeliveryRow>> {
    const now = this.now();
    const row = await resendDelivery(db, part, deliveryId, webhookId, now);
    if (!row) throw await this.refusal(db, part, deliveryId, webhookId);
    return { value: row, attempts: [{ id: row.id, round: row.round, attempt: 1, dueAt: now }] };
  }

  /**
   * The delivery's envelope again as a new delivery (kind replay) under a new evt_ id, which receivers that
   * de-duplicate on the id therefore process; the envelope's replay_of names the original event.
   */
  async replay(db: Queryable, part: WebhookPartition, deliveryId: string, webhookId?: string): Promise<Scheduled<DeliveryRow>> {
    const now = this.now();
    const source = await replayableEnvelope(db, part, deliveryId, webhookId);
    if (!source) throw await this.refusal(db, part, deliveryId, webhookId);
    const eventId = newEventId();
    const row = await insertReplay(
      db,
      part,
      { deliveryId, webhookId },
      { id: newId(), eventId, envelope: replayEnvelopeText(source.envelope, eventId) },
      now,
    );
    if (!row) throw await this.refusal(db, part, deliveryId, webhookId);
    return { value: row, attempts: [{ id: row.id, round: 0, attempt: 1, dueAt: now }] };
  }
}
