// The statements of the delivery log: the line of a ping or test sent at once, and a partition's log read, resent
// and replayed. A delivery of another partition is never found.
import { sql, type Insertable } from 'kysely';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { coreDb, type CoreTables } from '../tables.js';
import { deliveryColumns, type DeliveryChecked, type DeliveryRow, type DeliveryStatus, type WebhookPartition } from './rows.js';

/** The partition's deliveries with the row's columns. */
const deliveriesOf = (part: WebhookPartition) =>
  coreDb
    .selectFrom('webhook_deliveries')
    .select(deliveryColumns)
    .$narrowType<DeliveryChecked>()
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment);

/** Newest first, of one webhook and of one status when given; limit + 1 rows at most. */
export async function deliveriesPage(
  db: Runner,
  part: WebhookPartition,
  page: { webhookId?: string; status?: DeliveryStatus; before?: string; limit: number },
): Promise<DeliveryRow[]> {
  return rows(
    db,
    deliveriesOf(part)
      .$if(page.webhookId !== undefined, (qb) => qb.where('webhook_id', '=', page.webhookId!))
      .$if(page.status !== undefined, (qb) => qb.where('status', '=', page.status!))
      .$if(page.before !== undefined, (qb) => qb.where('id', '<', page.before!))
      .orderBy('id', 'desc')
      .limit(page.limit + 1),
  );
}

/** The delivery of the partition (and of the webhook, when given). */
export async function deliveryById(
  db: Runner,
  part: WebhookPartition,
  deliveryId: string,
  webhookId?: string,
): Promise<DeliveryRow | undefined> {
  return firstRow(
    db,
    deliveriesOf(part)
      .where('id', '=', deliveryId)
      .$if(webhookId !== undefined, (qb) => qb.where('webhook_id', '=', webhookId!)),
  );
}

export async function webhookStatus(db: Runner, webhookId: string) {
  return firstRow(db, coreDb.selectFrom('webhooks').select('status').where('id', '=', webhookId));
}

/** A finished delivery of a webhook that is not Disabled, pending again in a new round; undefined otherwise. */
export async function resendDelivery(
  db: Runner,
  part: WebhookPartition,
  deliveryId: string,
  webhookId: string | undefined,
  now: Date,
): Promise<DeliveryRow | undefined> {
  return firstRow(
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
}

/** The delivery of the partition (and webhook, when given), of a webhook that is not Disabled, as `d`. */
const replayable = (part: WebhookPartition, deliveryId: string, webhookId: string | undefined) =>
  coreDb
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .where('d.id', '=', deliveryId)
    .where('d.workspace_id', '=', part.workspaceId)
    .where('d.environment', '=', part.environment)
    .$if(webhookId !== undefined, (qb) => qb.where('d.webhook_id', '=', webhookId!))
    .where('w.status', '<>', 'Disabled');

/** The envelope of a delivery that may be replayed; undefined when there is none. */
export async function replayableEnvelope(db: Runner, part: WebhookPartition, deliveryId: string, webhookId: string | undefined) {
  return firstRow(db, replayable(part, deliveryId, webhookId).select('d.envelope'));
}

/** The delivery again as a new one (kind replay) with the given id, evt_ id and envelope, due now. */
export async function insertReplay(
  db: Runner,
  part: WebhookPartition,
  source: { deliveryId: string; webhookId: string | undefined },
  replay: { id: string; eventId: string; envelope: string },
  now: Date,
): Promise<DeliveryRow | undefined> {
  return firstRow(
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
        replayable(part, source.deliveryId, source.webhookId).select([
          sql<string>`${replay.id}::uuid`.as('id'),
          'd.webhook_id',
          'd.workspace_id',
          'd.environment',
          sql.lit('replay').as('kind'),
          'd.event',
          sql<string>`${replay.eventId}::text`.as('event_id'),
          sql<string>`${replay.envelope}::text`.as('envelope'),
          sql.lit('pending').as('status'),
          sql<Date>`${now}::timestamptz`.as('next_attempt_at'),
          'd.id',
          sql<Date>`${now}::timestamptz`.as('created_at'),
        ]),
      )
      .returning(deliveryColumns)
      .$narrowType<DeliveryChecked>(),
  );
}

/** The log line of a ping or test delivery that was sent at once. */
export async function insertSentDelivery(db: Runner, delivery: Insertable<CoreTables['webhook_deliveries']>): Promise<number> {
  return affected(db, coreDb.insertInto('webhook_deliveries').values(delivery));
}

const part: WebhookPartition = { workspaceId: example.id, environment: 'live' };

export const examples: QueryExamples = {
  deliveriesPage: (db) => deliveriesPage(db, part, { webhookId: example.otherId, status: 'failed', before: example.otherId, limit: 50 }),
  deliveryById: (db) => deliveryById(db, part, example.otherId, example.id),
  webhookStatus: (db) => webhookStatus(db, example.otherId),
  resendDelivery: (db) => resendDelivery(db, part, example.otherId, example.id, example.at),
  replayableEnvelope: (db) => replayableEnvelope(db, part, example.otherId, example.id),
  insertReplay: (db) =>
    insertReplay(
      db,
      part,
      { deliveryId: example.otherId, webhookId: example.id },
      { id: example.id, eventId: 'evt_1', envelope: '{}' },
      example.at,
    ),
  insertSentDelivery: (db) =>
    insertSentDelivery(db, {
      id: example.otherId,
      webhook_id: example.id,
      workspace_id: example.id,
      environment: 'live',
      kind: 'ping',
      event: 'webhook.ping',
      event_id: 'evt_1',
      envelope: '{}',
      status: 'succeeded',
      attempt_count: 1,
      last_attempt_at: example.at,
      response_status: 200,
      latency_ms: 5,
      response_excerpt: example.text,
      error: null,
      created_at: example.at,
      completed_at: example.at,
    }),
};
