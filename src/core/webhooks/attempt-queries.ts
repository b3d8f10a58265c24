// The statements of a delivery attempt: the claim of a batch of due attempts, the record of a batch of successes (with
// the webhooks they verify), the record of a failure counted on its webhook, and the pause after the last failure.
import { sql, type InferResult, type UpdateObject } from 'kysely';
import { firstRow, hotRows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { outboxInsertFrom } from '../../platform/outbox-writer.js';
import { internalTopic } from '../events/internal-topics.js';
import { coreDb, type CoreTables } from '../tables.js';
import type { DeliveryRef } from './engine.js';
import { webhookColumns, type SealedSecret, type WebhookChecked, type WebhookRow } from './rows.js';
import type { SendOutcome } from './sender.js';

/** How early a job may claim its attempt: tolerates clock skew between the node that scheduled it and this one. */
const slackMs = 1_000;

/**
 * The claim of a batch of attempts (one row per ref whose attempt is due or whose lease ran out). Its text depends
 * only on `traced`, so it runs as one of two named prepared statements. With tracing on, each row carries the
 * traceparent of the change that emitted the event (while its outbox row is kept), for the attempt's span.
 */
function claimStatement(traced: boolean, refs: DeliveryRef[], now: Date, leaseUntil: Date) {
  const paused = sql<boolean>`w.status in ('Paused', 'Disabled')`;
  return coreDb
    .updateTable('webhook_deliveries as d')
    .from([
      'webhooks as w',
      sql<{
        id: string;
        round: number;
        attempt: number;
      }>`unnest(${refs.map((r) => r.id)}::uuid[], ${refs.map((r) => r.round)}::int[], ${refs.map((r) => r.attempt)}::int[])`.as<'j'>(
        sql`j (id, round, attempt)`,
      ),
    ])
    .set({
      status: sql<string>`case w.status when 'Paused' then 'held' when 'Disabled' then 'cancelled' else 'sending' end`,
      attempt_count: sql<number>`case when ${paused} or d.status = 'sending' then d.attempt_count else d.attempt_count + 1 end`,
      lease_until: sql<Date | null>`case when ${paused} then null else ${leaseUntil}::timestamptz end`,
      next_attempt_at: sql<Date | null>`case when ${paused} then null else d.next_attempt_at end`,
      completed_at: sql<Date | null>`case when w.status = 'Disabled' then ${now}::timestamptz else d.completed_at end`,
      error: sql<string | null>`case when w.status = 'Disabled' then 'cancelled: the webhook was disabled' else d.error end`,
    })
    .whereRef('d.id', '=', 'j.id')
    .whereRef('d.round', '=', 'j.round')
    .whereRef('w.id', '=', 'd.webhook_id')
    .where(
      sql<boolean>`((d.status = 'pending' and d.attempt_count = j.attempt - 1 and d.next_attempt_at <= ${now}::timestamptz + ${slackMs} * interval '1 millisecond')
        or (d.status = 'sending' and d.attempt_count = j.attempt and d.lease_until < ${now}::timestamptz))`,
    )
    .returning((eb) => [
      'd.id',
      'd.webhook_id',
      'd.workspace_id',
      'd.event',
      'd.event_id',
      'd.envelope',
      'd.attempt_count',
      'd.round',
      'd.status',
      'w.url',
      'w.headers',
      'w.secret_ciphertext',
      traced
        ? eb.selectFrom('outbox as o').select('o.trace_context').whereRef('o.id', '=', 'd.outbox_id').as('trace_context')
        : sql<string | null>`null::text`.as('trace_context'),
    ])
    .$narrowType<{ status: 'sending' | 'held' | 'cancelled' } & Pick<WebhookChecked, 'headers'> & SealedSecret>();
}

export type ClaimedRow = InferResult<ReturnType<typeof claimStatement>>[number];

/** The claimed rows of the refs (named prepared: one of two texts). */
export async function claimAttempts(db: Runner, traced: boolean, refs: DeliveryRef[], now: Date, leaseUntil: Date): Promise<ClaimedRow[]> {
  return hotRows(db, claimStatement(traced, refs, now, leaseUntil));
}

/** The rows of many successes in one statement; the webhooks only when a counter or an Unverified status changes. */
function successesStatement(items: Success[], now: Date) {
  const recorded = sql<{
    id: string;
    round: number;
    attempt: number;
    at: Date;
    status: number | null;
    latency: number;
    excerpt: string;
    done: Date;
  }>`unnest(${items.map((s) => s.row.id)}::uuid[], ${items.map((s) => s.row.round)}::int[], ${items.map((s) => s.row.attempt_count)}::int[],
       ${items.map((s) => s.at)}::timestamptz[], ${items.map((s) => s.outcome.status)}::int[], ${items.map((s) => s.outcome.latencyMs)}::int[],
       ${items.map((s) => s.outcome.excerpt)}::text[], ${items.map((s) => s.done)}::timestamptz[])`;
  return (
    coreDb
      .with('r', (db) => db.selectFrom(recorded.as<'r'>(sql`r (id, round, attempt, at, status, latency, excerpt, done)`)).selectAll())
      .with('d', (db) =>
        db
          .updateTable('webhook_deliveries as x')
          .from('r')
          .set((eb) => ({
            status: 'succeeded',
            lease_until: null,
            next_attempt_at: null,
            last_attempt_at: eb.ref('r.at'),
            response_status: eb.ref('r.status'),
            latency_ms: eb.ref('r.latency'),
            response_excerpt: eb.ref('r.excerpt'),
            error: null,
            completed_at: eb.ref('r.done'),
          }))
          .whereRef('x.id', '=', 'r.id')
          .whereRef('x.round', '=', 'r.round')
          .whereRef('x.attempt_count', '=', 'r.attempt')
          .where('x.status', '=', 'sending')
          .returning('x.webhook_id'),
      )
      // The webhooks whose counter, status or verified flag changes.
      .with('b', (db) =>
        db
          .selectFrom('webhooks as w')
          .innerJoin('d', 'w.id', 'd.webhook_id')
          .select(['w.id', 'w.workspace_id', 'w.environment', 'w.status'])
          .distinct()
          .where((eb) => eb.or([eb('w.consecutive_failures', '<>', 0), eb('w.status', '=', 'Unverified'), eb.not(eb.ref('w.verified'))])),
      )
      .with('u', (db) =>
        db
          .updateTable('webhooks as w')
          .from('b')
          .set({
            consecutive_failures: 0,
            verified: true,
            status: sql<string>`case when w.status = 'Unverified' then 'Active' else w.status end`,
            updated_at: sql<Date>`case when w.status = 'Unverified' then ${now}::timestamptz else w.updated_at end`,
          })
          .whereRef('w.id', '=', 'b.id')
          .returning('w.id'),
      )
      .with('e', (db) =>
        outboxInsertFrom(
          db,
          db
            .selectFrom('b')
            .select([
              internalTopic('webhook.verified').as('topic'),
              sql<unknown>`jsonb_build_object('audience', jsonb_build_object('kind', 'accounts', 'accountIds', '[]'::jsonb),
                'workspaceId', b.workspace_id, 'environment', b.environment, 'webhookId', b.id, 'status', 'Active')`.as('payload'),
            ])
            .where('b.status', '=', 'Unverified'),
        ),
      )
      .selectFrom('d')
      .select(sql<number>`count(*)::int`.as('n'))
  );
}

/** The rows of many successes in one statement (named prepared). */
export async function recordSuccesses(db: Runner, items: Success[], now: Date): Promise<void> {
  await hotRows(db, successesStatement(items, now));
}

/** The columns a failed attempt writes. */
export type FailureRecord = UpdateObject<CoreTables, 'webhook_deliveries'>;

/** The record of a failed attempt, taken only while this attempt still holds the row (sending, the same attempt). */
function failedAttempt(row: ClaimedRow, values: FailureRecord) {
  return coreDb
    .updateTable('webhook_deliveries')
    .set(values)
    .where('id', '=', row.id)
    .where('round', '=', row.round)
    .where('attempt_count', '=', row.attempt_count)
    .where('status', '=', 'sending');
}

/**
 * The record taken and the webhook's consecutive failures counted, in one statement; false when the row was no
 * longer this attempt's.
 */
export async function recordedAndCounted(runner: Runner, row: ClaimedRow, values: FailureRecord): Promise<boolean> {
  const counted = coreDb
    .with('d', () => failedAttempt(row, values).returning('webhook_id'))
    .with('w', (db) =>
      db
        .updateTable('webhooks')
        .set((eb) => ({ consecutive_failures: eb('consecutive_failures', '+', 1) }))
        .where('id', 'in', db.selectFrom('d').select('d.webhook_id'))
        .returning('webhooks.id'),
    )
    .selectFrom('d')
    .select(sql<number>`count(*)::int`.as('n'));
  return ((await firstRow(runner, counted))?.n ?? 0) > 0;
}

export interface Success {
  row: ClaimedRow;
  outcome: SendOutcome;
  at: Date;
  done: Date;
}

/** The webhook paused after its last failed attempt, with its notice due; undefined when it was not Active or Unverified. */
export async function pauseAfterFailures(client: Runner, webhookId: string, done: Date): Promise<WebhookRow | undefined> {
  return firstRow(
    client,
    coreDb
      .updateTable('webhooks')
      .set({
        status: 'Paused',
        paused_reason: 'failures',
        paused_at: done,
        updated_at: done,
        notice_pending: true,
        notice_lease_until: null,
      })
      .where('id', '=', webhookId)
      .where('status', 'in', ['Active', 'Unverified'])
      .returning(webhookColumns)
      .$narrowType<WebhookChecked>(),
  );
}

const claimed = {
  id: example.id,
  webhook_id: example.otherId,
  round: 0,
  attempt_count: 1,
} as ClaimedRow;

const refs: DeliveryRef[] = [{ id: example.id, round: 0, attempt: 1 }];

export const examples: QueryExamples = {
  claimAttempts: (db) => claimAttempts(db, true, refs, example.at, example.at),
  recordSuccesses: (db) =>
    recordSuccesses(
      db,
      [
        {
          row: claimed,
          outcome: { ok: true, status: 200, latencyMs: 5, excerpt: example.text, error: null, retryable: false },
          at: example.at,
          done: example.at,
        },
      ],
      example.at,
    ),
  recordedAndCounted: (db) =>
    recordedAndCounted(db, claimed, {
      status: 'pending',
      lease_until: null,
      next_attempt_at: example.at,
      last_attempt_at: example.at,
      response_status: 500,
      latency_ms: 5,
      response_excerpt: example.text,
      error: example.text,
      completed_at: null,
    }),
  pauseAfterFailures: (db) => pauseAfterFailures(db, example.otherId, example.at),
};
