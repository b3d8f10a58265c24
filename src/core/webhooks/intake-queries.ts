// The statements of event intake: the webhooks an event may go to, and the deliveries it makes.
import { sql } from 'kysely';
import { rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { coreDb } from '../tables.js';
import type { WebhookChecked } from './rows.js';

/** The webhooks of these workspaces that are not Disabled. */
export async function subscribedWebhooks(db: Runner, workspaceIds: string[]) {
  return rows(
    db,
    coreDb
      .selectFrom('webhooks')
      .select(['id', 'workspace_id', 'environment', 'events', 'status'])
      .$narrowType<Pick<WebhookChecked, 'status'>>()
      .where(sql<boolean>`workspace_id = any(${workspaceIds}::uuid[])`)
      .where('status', '<>', 'Disabled'),
  );
}

/** The new deliveries, one array per column. */
export interface DeliveryColumns {
  id: string[];
  webhook: string[];
  workspace: string[];
  environment: string[];
  event: string[];
  eventId: string[];
  envelope: string[];
  status: string[];
  due: (Date | null)[];
  outbox: number[];
}

/** Inserts the deliveries; an event already taken for a webhook (webhook_deliveries_intake) is skipped. */
export async function insertEventDeliveries(db: Runner, cols: DeliveryColumns, now: Date) {
  const table = sql<{
    id: string;
    webhook_id: string;
    workspace_id: string;
    environment: string;
    event: string;
    event_id: string;
    envelope: string;
    status: string;
    next_attempt_at: Date | null;
    outbox_id: number;
  }>`unnest(${cols.id}::uuid[], ${cols.webhook}::uuid[], ${cols.workspace}::uuid[], ${cols.environment}::text[], ${cols.event}::text[],
            ${cols.eventId}::text[], ${cols.envelope}::text[], ${cols.status}::text[], ${cols.due}::timestamptz[], ${cols.outbox}::bigint[])`;
  return rows(
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
        'outbox_id',
        'created_at',
      ])
      .expression(
        coreDb
          .selectFrom(
            table.as<'t'>(
              sql`t (id, webhook_id, workspace_id, environment, event, event_id, envelope, status, next_attempt_at, outbox_id)`,
            ),
          )
          .select([
            't.id',
            't.webhook_id',
            't.workspace_id',
            't.environment',
            sql.lit('event').as('kind'),
            't.event',
            't.event_id',
            't.envelope',
            't.status',
            't.next_attempt_at',
            't.outbox_id',
            sql<Date>`${now}::timestamptz`.as('created_at'),
          ]),
      )
      .onConflict((oc) => oc.doNothing())
      .returning(['id', 'status']),
  );
}

export const examples: QueryExamples = {
  subscribedWebhooks: (db) => subscribedWebhooks(db, [example.id]),
  insertEventDeliveries: (db) =>
    insertEventDeliveries(
      db,
      {
        id: [example.otherId],
        webhook: [example.id],
        workspace: [example.id],
        environment: ['live'],
        event: ['lead.created'],
        eventId: ['evt_1'],
        envelope: ['{}'],
        status: ['pending'],
        due: [example.at],
        outbox: [1],
      },
      example.at,
    ),
};
