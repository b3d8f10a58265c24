// The statements of a partition's webhooks (workspace and environment: a webhook of another partition is never
// found): created, listed, read, changed, paused, resumed, disabled, verified by a test, deleted.
import { sql, type Insertable, type Updateable } from 'kysely';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { coreDb, type CoreTables } from '../tables.js';
import {
  webhookColumns,
  type SealedSecret,
  type WebhookChecked,
  type WebhookPartition,
  type WebhookRow,
  type WebhookStatus,
} from './rows.js';

/** The partition's webhooks with the row's columns. */
const webhooksOf = (part: WebhookPartition) =>
  coreDb
    .selectFrom('webhooks')
    .select(webhookColumns)
    .$narrowType<WebhookChecked>()
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment);

/** An update of one webhook of the partition. */
const changeOf = (part: WebhookPartition, id: string) =>
  coreDb
    .updateTable('webhooks')
    .where('id', '=', id)
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment);

/** The webhook's row with its sealed secret, which only the service opens. */
export async function webhookWithSecret(db: Runner, part: WebhookPartition, id: string): Promise<(WebhookRow & SealedSecret) | undefined> {
  return firstRow(db, webhooksOf(part).select('secret_ciphertext').$narrowType<SealedSecret>().where('id', '=', id));
}

export async function countWebhooks(db: Runner, part: WebhookPartition): Promise<number> {
  const counted = await firstRow(
    db,
    coreDb
      .selectFrom('webhooks')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('workspace_id', '=', part.workspaceId)
      .where('environment', '=', part.environment),
  );
  return counted?.n ?? 0;
}

export async function insertWebhook(db: Runner, webhook: Insertable<CoreTables['webhooks']>): Promise<WebhookRow | undefined> {
  return firstRow(db, coreDb.insertInto('webhooks').values(webhook).returning(webhookColumns).$narrowType<WebhookChecked>());
}

/** Newest first, of one status when given; limit + 1 rows at most. */
export async function webhooksPage(
  db: Runner,
  part: WebhookPartition,
  page: { status?: WebhookStatus; before?: string; limit: number },
): Promise<WebhookRow[]> {
  return rows(
    db,
    webhooksOf(part)
      .$if(page.status !== undefined, (qb) => qb.where('status', '=', page.status!))
      .$if(page.before !== undefined, (qb) => qb.where('id', '<', page.before!))
      .orderBy('id', 'desc')
      .limit(page.limit + 1),
  );
}

/** The environment of one webhook of the workspace; undefined when it has none of this id. */
export async function webhookEnvironment(db: Runner, workspaceId: string, id: string) {
  return firstRow(db, coreDb.selectFrom('webhooks').select('environment').where('id', '=', id).where('workspace_id', '=', workspaceId));
}

/** Sets the given columns of a webhook that is not Disabled; undefined when none was changed. */
export async function updateWebhook(
  db: Runner,
  part: WebhookPartition,
  id: string,
  set: Updateable<CoreTables['webhooks']>,
): Promise<WebhookRow | undefined> {
  return firstRow(
    db,
    coreDb
      .updateTable('webhooks')
      .set(set)
      .where('id', '=', id)
      .where('workspace_id', '=', part.workspaceId)
      .where('environment', '=', part.environment)
      .where('status', '<>', 'Disabled')
      .returning(webhookColumns)
      .$narrowType<WebhookChecked>(),
  );
}

/** The deleted webhook; undefined when there was none. */
export async function deleteWebhook(db: Runner, part: WebhookPartition, id: string): Promise<WebhookRow | undefined> {
  return firstRow(
    db,
    coreDb
      .deleteFrom('webhooks')
      .where('id', '=', id)
      .where('workspace_id', '=', part.workspaceId)
      .where('environment', '=', part.environment)
      .returning(webhookColumns)
      .$narrowType<WebhookChecked>(),
  );
}

/** Paused by hand when Active or Unverified; undefined otherwise. */
export async function pauseWebhook(db: Runner, part: WebhookPartition, id: string, now: Date): Promise<WebhookRow | undefined> {
  return firstRow(
    db,
    changeOf(part, id)
      .set({ status: 'Paused', paused_reason: 'manual', paused_at: now, updated_at: now })
      .where('status', 'in', ['Active', 'Unverified'])
      .returning(webhookColumns)
      .$narrowType<WebhookChecked>(),
  );
}

/** A Paused webhook Active again (Unverified when never verified), failures reset; undefined when it was not Paused. */
export async function resumeWebhook(db: Runner, part: WebhookPartition, id: string, now: Date): Promise<WebhookRow | undefined> {
  return firstRow(
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
}

/** The webhook's held deliveries, due now. */
export async function releaseHeldDeliveries(db: Runner, webhookId: string, now: Date) {
  return rows(
    db,
    coreDb
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', next_attempt_at: now })
      .where('webhook_id', '=', webhookId)
      .where('status', '=', 'held')
      .returning(['id', 'round', 'attempt_count']),
  );
}

/** Disabled for good; undefined when it was Disabled already. */
export async function disableWebhook(db: Runner, part: WebhookPartition, id: string, now: Date): Promise<WebhookRow | undefined> {
  return firstRow(
    db,
    changeOf(part, id)
      .set({ status: 'Disabled', paused_reason: null, disabled_at: now, updated_at: now, notice_pending: false })
      .where('status', '<>', 'Disabled')
      .returning(webhookColumns)
      .$narrowType<WebhookChecked>(),
  );
}

/** Cancels the webhook's pending and held deliveries; how many. */
export async function cancelOpenDeliveries(db: Runner, webhookId: string, now: Date): Promise<number> {
  return affected(
    db,
    coreDb
      .updateTable('webhook_deliveries')
      .set({ status: 'cancelled', next_attempt_at: null, completed_at: now, error: 'cancelled: the webhook was disabled' })
      .where('webhook_id', '=', webhookId)
      .where('status', 'in', ['pending', 'held']),
  );
}

/** Marks an unverified webhook verified after a 2xx test (Active when it was Unverified), with its status before. */
export async function verifyWebhook(db: Runner, id: string, now: Date) {
  // The status before the update (the CTE reads it under the row lock), to tell whether this verified it.
  return firstRow(
    db,
    coreDb
      .with('before', (qb) => qb.selectFrom('webhooks').select('status').where('id', '=', id).forUpdate())
      .updateTable('webhooks as w')
      .from('before')
      .set({
        status: sql<string>`case when w.status = 'Unverified' then 'Active' else w.status end`,
        verified: true,
        consecutive_failures: sql<number>`case when w.status = 'Unverified' then 0 else w.consecutive_failures end`,
        updated_at: sql<Date>`case when w.status = 'Unverified' then ${now}::timestamptz else w.updated_at end`,
      })
      .where('w.id', '=', id)
      .where((eb) => eb.not(eb.ref('w.verified')))
      .returning([...webhookColumns.map((c) => `w.${c}` as const), 'before.status as previous_status'])
      .$narrowType<WebhookChecked & { previous_status: WebhookStatus }>(),
  );
}

const part: WebhookPartition = { workspaceId: example.id, environment: 'live' };

export const examples: QueryExamples = {
  webhookWithSecret: (db) => webhookWithSecret(db, part, example.otherId),
  countWebhooks: (db) => countWebhooks(db, part),
  insertWebhook: (db) =>
    insertWebhook(db, {
      id: example.otherId,
      workspace_id: example.id,
      environment: 'live',
      name: example.text,
      url: 'https://example.com/hook',
      events: ['lead.created'],
      description: null,
      headers: '{}',
      secret_ciphertext: Buffer.from(example.text),
      secret_last_four: 'abcd',
      status: 'Active',
      verified: true,
      created_via: 'svc_key',
      created_by_key: example.id,
      created_by_account: null,
      created_at: example.at,
      updated_at: example.at,
    }),
  webhooksPage: (db) => webhooksPage(db, part, { status: 'Active', before: example.otherId, limit: 50 }),
  webhookEnvironment: (db) => webhookEnvironment(db, example.id, example.otherId),
  updateWebhook: (db) => updateWebhook(db, part, example.otherId, { name: example.text, updated_at: example.at }),
  deleteWebhook: (db) => deleteWebhook(db, part, example.otherId),
  pauseWebhook: (db) => pauseWebhook(db, part, example.otherId, example.at),
  resumeWebhook: (db) => resumeWebhook(db, part, example.otherId, example.at),
  releaseHeldDeliveries: (db) => releaseHeldDeliveries(db, example.otherId, example.at),
  disableWebhook: (db) => disableWebhook(db, part, example.otherId, example.at),
  cancelOpenDeliveries: (db) => cancelOpenDeliveries(db, example.otherId, example.at),
  verifyWebhook: (db) => verifyWebhook(db, example.otherId, example.at),
};
