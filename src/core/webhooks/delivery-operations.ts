// The delivery log of a partition and what its reader may do with a delivery: send it again (resend, the same id in
// a new round) or send its envelope as a new event (replay).
import { sql } from 'kysely';
import type { AppError } from '../../platform/http/app-error.js';
import { newId } from '../../platform/ids.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { firstRow, rows } from '../../platform/db/typed.js';
import { coreDb } from '../tables.js';
import type { WebhookEngine } from './engine.js';
import { newEventId, replayEnvelopeText } from './events.js';
import type { WebhookErrorFactory } from './input-checks.js';
import { cursorId, pageOf, partitionList, type Page } from './pages.js';
import { deliveriesOf, type Scheduled } from './partition.js';
import { deliveryColumns, type DeliveryChecked, type DeliveryRow, type DeliveryStatus, type WebhookPartition } from './rows.js';

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
    const found = await rows(
      db,
      deliveriesOf(part)
        .$if(query.webhookId !== undefined, (qb) => qb.where('webhook_id', '=', query.webhookId!))
        .$if(query.status !== undefined, (qb) => qb.where('status', '=', query.status!))
        .$if(before !== undefined, (qb) => qb.where('id', '<', before!))
        .orderBy('id', 'desc')
        .limit(limit + 1),
    );
    return pageOf(found, limit, list);
  }

  async delivery(db: Queryable, part: WebhookPartition, deliveryId: string, webhookId?: string): Promise<DeliveryRow> {
    const row = await firstRow(
      db,
      deliveriesOf(part)
        .where('id', '=', deliveryId)
        .$if(webhookId !== undefined, (qb) => qb.where('webhook_id', '=', webhookId!)),
    );
    if (!row) throw this.errors.deliveryNotFound();
    return row;
  }

  /** Why a resend or replay found nothing to do: no such delivery, a Disabled webhook, or (resend) one in progress. */
  private async refusal(db: Queryable, part: WebhookPartition, deliveryId: string, webhookId: string | undefined): Promise<AppError> {
    const delivery = await this.delivery(db, part, deliveryId, webhookId);
    const webhook = await firstRow(db, coreDb.selectFrom('webhooks').select('status').where('id', '=', delivery.webhook_id));
    if (webhook?.status === 'Disabled') return this.errors.disabled();
    return this.errors.inProgress();
  }

  /** The same delivery id again, in a new round of the retry schedule starting now. */
  async resend(db: Queryable, part: WebhookPartition, deliveryId: string, webhookId?: string): Promise<Scheduled<DeliveryRow>> {
    const now = this.now();
    const row = await firstRow(
      db,
      coreDb
        .updateTable('webhook_deliveries as d')
        .from('webhooks as w')
        .set((eb) => ({
          status: 'pending',
          attempt_count: 0,
          round: eb('d.round', '+', 1),
          next_attempt_at: now,
          lease_until: null,
          completed_at: null,
        }))
        .where('d.id', '=', deliveryId)
        .where('d.workspace_id', '=', part.workspaceId)
        .where('d.environment', '=', part.environment)
        .$if(webhookId !== undefined, (qb) => qb.where('d.webhook_id', '=', webhookId!))
        .whereRef('w.id', '=', 'd.webhook_id')
        .where('w.status', '<>', 'Disabled')
        .where('d.status', 'in', ['succeeded', 'failed', 'cancelled'])
        .returning(deliveryColumns.map((c) => `d.${c}` as const))
        .$narrowType<DeliveryChecked>(),
    );
    if (!row) throw await this.refusal(db, part, deliveryId, webhookId);
    return { value: row, attempts: [{ id: row.id, round: row.round, attempt: 1, dueAt: now }] };
  }

  /**
   * The delivery's envelope again as a new delivery (kind replay) under a new evt_ id, which receivers that
   * de-duplicate on the id therefore process; the envelope's replay_of names the original event.
   */
  async replay(db: Queryable, part: WebhookPartition, deliveryId: string, webhookId?: string): Promise<Scheduled<DeliveryRow>> {
    const now = this.now();
    // The delivery, of a webhook that is not Disabled, as `d`.
    const replayable = () =>
      coreDb
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
        .where('d.id', '=', deliveryId)
        .where('d.workspace_id', '=', part.workspaceId)
        .where('d.environment', '=', part.environment)
        .$if(webhookId !== undefined, (qb) => qb.where('d.webhook_id', '=', webhookId!))
        .where('w.status', '<>', 'Disabled');
    const source = await firstRow(db, replayable().select('d.envelope'));
    if (!source) throw await this.refusal(db, part, deliveryId, webhookId);
    const eventId = newEventId();
    const row = await firstRow(
      db,
      coreDb
        .insertInto('webhook_deliveries')
        .columns([
          'id',
          'webhook_id',
          'workspace_id',
          'environment',
          'kind',
          'event',
          'event_id',
          'envelope',
          'status',
          'next_attempt_at',
          'replay_of',
          'created_at',
        ])
        .expression(
          replayable().select([
            sql<string>`${newId()}::uuid`.as('id'),
            'd.webhook_id',
            'd.workspace_id',
            'd.environment',
            sql.lit('replay').as('kind'),
            'd.event',
            sql<string>`${eventId}::text`.as('event_id'),
            sql<string>`${replayEnvelopeText(source.envelope, eventId)}::text`.as('envelope'),
            sql.lit('pending').as('status'),
            sql<Date>`${now}::timestamptz`.as('next_attempt_at'),
            'd.id',
            sql<Date>`${now}::timestamptz`.as('created_at'),
          ]),
        )
        .returning(deliveryColumns)
        .$narrowType<DeliveryChecked>(),
    );
    if (!row) throw await this.refusal(db, part, deliveryId, webhookId);
    return { value: row, attempts: [{ id: row.id, round: 0, attempt: 1, dueAt: now }] };
  }
}
