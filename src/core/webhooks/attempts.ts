// Attempts of queued deliveries. Each attempt waits for a free slot (WEBHOOK_CONCURRENCY per node), then claims its
// row (a lease, so a second job for the same attempt does nothing), signs and sends the stored envelope, and records
// the outcome in the row. Claims and successes of the attempts that start or end in the same turn of the event loop
// share one SQL statement. A 2xx ends the delivery; a permanent 4xx fails it; anything else schedules the next
// attempt of WEBHOOK_RETRY_SCHEDULE, and the last failed attempt pauses the webhook and leaves a notice for its
// Owner. A claimed delivery whose webhook is Paused is held; one whose webhook is Disabled is cancelled.
import { inTransaction } from '../../platform/db/sql.js';
import { countWebhookAttempt } from '../../platform/metrics/webhooks.js';
import { inConsumerSpan } from '../../platform/tracing/consumer.js';
import { tracingOn } from '../../platform/tracing/state.js';
import { MicroBatcher, Semaphore } from './batching.js';
import type { DeliveryRef, WebhookEngine } from './engine.js';
import { deliveryHeaders } from './headers.js';
import { webhookColumns, webhookOutbox, type WebhookRow } from './rows.js';
import { internalTopicSql } from '../events/internal-topics.js';
import { outboxInsertSql } from '../../platform/outbox-writer.js';
import type { SendOutcome } from './sender.js';

interface ClaimedRow {
  id: string;
  webhook_id: string;
  workspace_id: string;
  event: string;
  event_id: string;
  envelope: string;
  attempt_count: number;
  round: number;
  status: 'sending' | 'held' | 'cancelled';
  url: string;
  headers: Record<string, string>;
  secret_ciphertext: Buffer;
  /** The traceparent of the change that emitted the event (while its outbox row is kept), for the attempt's span. */
  trace_context: string | null;
}

interface Success {
  row: ClaimedRow;
  outcome: SendOutcome;
  at: Date;
  done: Date;
}

export interface AttemptResult {
  /** Set when the delivery ended (succeeded, failed for good, cancelled): that webhook's log may be pruned. */
  completedWebhookId?: string;
  /** Set when this attempt paused the webhook: its Owner's notice is due. */
  pausedWebhookId?: string;
}

/** How early a job may claim its attempt: tolerates clock skew between the node that scheduled it and this one. */
const slackMs = 1_000;

function failureText(outcome: SendOutcome, final: boolean): string {
  const base = outcome.error ?? `HTTP ${outcome.status}`;
  if (!outcome.retryable) return `${base} (permanent: not retried)`;
  return final ? `${base} (every attempt failed)` : base;
}

export class AttemptRunner {
  private readonly secrets = new Map<string, string>();
  private readonly slots: Semaphore;
  private readonly claims: MicroBatcher<DeliveryRef, ClaimedRow | null>;
  private readonly successes: MicroBatcher<Success, void>;

  constructor(private readonly engine: WebhookEngine) {
    this.slots = new Semaphore(engine.settings.concurrency);
    this.claims = new MicroBatcher((refs) => this.claim(refs));
    this.successes = new MicroBatcher<Success, void>(async (items) => {
      await this.recordSuccesses(items);
      return items.map(() => undefined);
    });
  }

  private leaseMs(): number {
    return this.engine.settings.timeoutMs * 2 + 2_000;
  }

  private secretOf(row: ClaimedRow): string {
    const cacheKey = `${row.webhook_id}:${row.secret_ciphertext.toString('base64')}`;
    let secret = this.secrets.get(cacheKey);
    if (secret === undefined) {
      secret = this.engine.box.open(row.secret_ciphertext, row.webhook_id);
      if (this.secrets.size >= 10_000) this.secrets.clear();
      this.secrets.set(cacheKey, secret);
    }
    return secret;
  }

  /** The rows, leased for these attempts; null for a stale job (done already, superseded, or not yet due). */
  private async claim(refs: DeliveryRef[]): Promise<Array<ClaimedRow | null>> {
    const now = this.engine.clock.now();
    // The producer's traceparent is read only while tracing is on.
    const traced = tracingOn();
    const { rows } = await this.engine.sql.query<ClaimedRow>({
      name: traced ? 'webhook_claim_traced' : 'webhook_claim',
      text: `update webhook_deliveries d
                set status = case w.status when 'Paused' then 'held' when 'Disabled' then 'cancelled' else 'sending' end,
                    attempt_count = case when w.status in ('Paused', 'Disabled') or d.status = 'sending' then d.attempt_count else d.attempt_count + 1 end,
                    lease_until = case when w.status in ('Paused', 'Disabled') then null else $5::timestamptz end,
                    next_attempt_at = case when w.status in ('Paused', 'Disabled') then null else d.next_attempt_at end,
                    completed_at = case when w.status = 'Disabled' then $4::timestamptz else d.completed_at end,
                    error = case when w.status = 'Disabled' then 'cancelled: the webhook was disabled' else d.error end
               from webhooks w, unnest($1::uuid[], $2::int[], $3::int[]) as j (id, round, attempt)
              where d.id = j.id and d.round = j.round and w.id = d.webhook_id
                and ((d.status = 'pending' and d.attempt_count = j.attempt - 1 and d.next_attempt_at <= $4::timestamptz + $6 * interval '1 millisecond')
                  or (d.status = 'sending' and d.attempt_count = j.attempt and d.lease_until < $4::timestamptz))
          returning d.id, d.webhook_id, d.workspace_id, d.event, d.event_id, d.envelope, d.attempt_count, d.round, d.status, w.url, w.headers, w.secret_ciphertext,
                    ${traced ? '(select o.trace_context from outbox o where o.id = d.outbox_id)' : 'null::text'} as trace_context`,
      values: [
        refs.map((r) => r.id),
        refs.map((r) => r.round),
        refs.map((r) => r.attempt),
        now,
        new Date(now.getTime() + this.leaseMs()),
        slackMs,
      ],
    });
    const byId = new Map(rows.map((r) => [r.id, r]));
    // One row answers one ref: the same attempt queued twice in one batch is sent once.
    return refs.map((ref) => {
      const row = byId.get(ref.id);
      byId.delete(ref.id);
      return row ?? null;
    });
  }

  /** One attempt: a slot, the claim, the request, the record. Never throws for the receiver's sake. */
  async run(ref: DeliveryRef): Promise<AttemptResult> {
    await this.slots.acquire();
    let claimed: ClaimedRow | null;
    let outcome: SendOutcome;
    let at: Date;
    try {
      claimed = await this.claims.add(ref);
      if (!claimed) return {};
      if (claimed.status !== 'sending') return claimed.status === 'cancelled' ? { completedWebhookId: claimed.webhook_id } : {};
      at = this.engine.clock.now();
      const headers = deliveryHeaders({
        secret: this.secretOf(claimed),
        body: claimed.envelope,
        event: claimed.event,
        // The envelope's own id: one id on the wire, kept by every attempt and by resend.
        deliveryId: claimed.event_id,
        workspaceId: claimed.workspace_id,
        attempt: claimed.attempt_count,
        timestamp: Math.floor(at.getTime() / 1000),
        custom: claimed.headers,
      });
      const sending = claimed;
      outcome = await inConsumerSpan(
        'webhook.attempt',
        [sending.trace_context],
        { 'webhook.event': sending.event, 'webhook.attempt': sending.attempt_count },
        () => this.engine.sender.post(sending.url, sending.envelope, headers),
      );
    } finally {
      this.slots.release();
    }
    const done = this.engine.clock.now();
    countWebhookAttempt('workspace', outcome.ok, claimed.attempt_count);
    if (outcome.ok) {
      await this.successes.add({ row: claimed, outcome, at, done });
      return { completedWebhookId: claimed.webhook_id };
    }
    return this.recordFailure(claimed, outcome, at, done);
  }

  /** The rows of many successes in one statement; the webhooks only when a counter or an Unverified status changes. */
  private async recordSuccesses(items: Success[]): Promise<void> {
    await this.engine.sql.query({
      name: 'webhook_record_successes',
      text: `with r as (
               select * from unnest($1::uuid[], $2::int[], $3::int[], $4::timestamptz[], $5::int[], $6::int[], $7::text[], $8::timestamptz[])
                 as r (id, round, attempt, at, status, latency, excerpt, done)),
             d as (
               update webhook_deliveries x
                  set status = 'succeeded', lease_until = null, next_attempt_at = null, last_attempt_at = r.at, response_status = r.status,
                      latency_ms = r.latency, response_excerpt = r.excerpt, error = null, completed_at = r.done
                 from r
                where x.id = r.id and x.round = r.round and x.attempt_count = r.attempt and x.status = 'sending'
            returning x.webhook_id),
             b as (select distinct w.id, w.workspace_id, w.environment, w.status from webhooks w join d on w.id = d.webhook_id
                    where w.consecutive_failures <> 0 or w.status = 'Unverified' or not w.verified),
             u as (update webhooks w
                      set consecutive_failures = 0, verified = true,
                          status = case when w.status = 'Unverified' then 'Active' else w.status end,
                          updated_at = case when w.status = 'Unverified' then $9 else w.updated_at end
                     from b where w.id = b.id returning w.id),
             e as (${outboxInsertSql}
                   select ${internalTopicSql('webhook.verified')}, jsonb_build_object('audience', jsonb_build_object('kind', 'accounts', 'accountIds', '[]'::jsonb),
                          'workspaceId', b.workspace_id, 'environment', b.environment, 'webhookId', b.id, 'status', 'Active')
                     from b where b.status = 'Unverified')
           select count(*)::int as n from d`,
      values: [
        items.map((s) => s.row.id),
        items.map((s) => s.row.round),
        items.map((s) => s.row.attempt_count),
        items.map((s) => s.at),
        items.map((s) => s.outcome.status),
        items.map((s) => s.outcome.latencyMs),
        items.map((s) => s.outcome.excerpt),
        items.map((s) => s.done),
        this.engine.clock.now(),
      ],
    });
  }

  private async recordFailure(row: ClaimedRow, outcome: SendOutcome, at: Date, done: Date): Promise<AttemptResult> {
    const engine = this.engine;
    const exhausted = outcome.retryable && row.attempt_count >= engine.maxAttempts;
    const final = !outcome.retryable || exhausted;
    const next = final ? null : new Date(done.getTime() + engine.delayBefore(row.attempt_count + 1) * 1000);
    const recorded = await inTransaction(engine.sql, async (client): Promise<{ paused: string | null } | null> => {
      const { rowCount } = await client.query(
        `update webhook_deliveries
            set status = $4, lease_until = null, next_attempt_at = $5, last_attempt_at = $6, response_status = $7,
                latency_ms = $8, response_excerpt = $9, error = $10, completed_at = $11
          where id = $1 and round = $2 and attempt_count = $3 and status = 'sending'`,
        [
          row.id,
          row.round,
          row.attempt_count,
          final ? 'failed' : 'pending',
          next,
          at,
          outcome.status,
          outcome.latencyMs,
          outcome.excerpt,
          failureText(outcome, final),
          final ? done : null,
        ],
      );
      // Another node took the lease over (this attempt outlived it): its record stands.
      if (!rowCount) return null;
      await client.query('update webhooks set consecutive_failures = consecutive_failures + 1 where id = $1', [row.webhook_id]);
      if (!exhausted) return { paused: null };
      const { rows } = await client.query<WebhookRow>(
        `update webhooks set status = 'Paused', paused_reason = 'failures', paused_at = $2, updated_at = $2, notice_pending = true, notice_lease_until = null
          where id = $1 and status in ('Active', 'Unverified')
          returning ${webhookColumns}`,
        [row.webhook_id, done],
      );
      const webhook = rows[0];
      if (!webhook) return { paused: null };
      await webhookOutbox(client, 'webhook.paused', webhook, { reason: 'failures', deliveryId: row.id });
      return { paused: webhook.id };
    });
    if (!recorded) return {};
    if (next) await engine.enqueue([{ id: row.id, round: row.round, attempt: row.attempt_count + 1, dueAt: next }]);
    return { ...(final ? { completedWebhookId: row.webhook_id } : {}), ...(recorded.paused ? { pausedWebhookId: recorded.paused } : {}) };
  }
}
