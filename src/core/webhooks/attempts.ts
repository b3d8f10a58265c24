// Attempts of queued deliveries. Each attempt waits for a free slot (WEBHOOK_CONCURRENCY per node), then claims its
// row (a lease, so a second job for the same attempt does nothing), signs and sends the stored envelope, and records
// the outcome in the row. Claims and successes of the attempts that start or end in the same turn of the event loop
// share one SQL statement. A 2xx ends the delivery; a permanent 4xx fails it; anything else schedules the next
// attempt of WEBHOOK_RETRY_SCHEDULE, and the last failed attempt pauses the webhook and leaves a notice for its
// Owner. A claimed delivery whose webhook is Paused is held; one whose webhook is Disabled is cancelled.
// A node never takes over the lease of an attempt it is still running itself (a starved process can outlive its
// lease): only another node's, or a crashed one's, is taken over.
import { inTransaction } from '../../platform/db/sql.js';
import type { Runner } from '../../platform/db/typed.js';
import { countWebhookAttempt } from '../../platform/metrics/webhooks.js';
import { inConsumerSpan } from '../../platform/tracing/consumer.js';
import { tracingOn } from '../../platform/tracing/state.js';
import { MicroBatcher, Semaphore } from './batching.js';
import type { DeliveryRef, WebhookEngine } from './engine.js';
import { deliveryHeaders } from './headers.js';
import { webhookOutbox } from './rows.js';
import type { SendOutcome } from './sender.js';
import {
  claimAttempts,
  pauseAfterFailures,
  recordedAndCounted,
  recordSuccesses,
  type ClaimedRow,
  type FailureRecord,
  type Success,
} from './attempt-queries.js';

/**
 * Recording an attempt that was sent is tried this many times, the waits growing by recordRetryMs: unrecorded, the
 * row would stay `sending` until its lease ran out and the same attempt would be sent again.
 */
const recordTries = 4;
const recordRetryMs = 500;

export interface AttemptResult {
  /** Set when the delivery ended (succeeded, failed for good, cancelled): that webhook's log may be pruned. */
  completedWebhookId?: string;
  /** Set when this attempt paused the webhook: its Owner's notice is due. */
  pausedWebhookId?: string;
}

function failureText(outcome: SendOutcome, final: boolean): string {
  const base = outcome.error ?? `HTTP ${outcome.status}`;
  if (!outcome.retryable) return `${base} (permanent: not retried)`;
  return final ? `${base} (every attempt failed)` : base;
}

export class AttemptRunner {
  private readonly secrets = new Map<string, string>();
  /** The deliveries whose attempt this node has claimed and not yet recorded. */
  private readonly inFlight = new Set<string>();
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
    const rows = await claimAttempts(this.engine.sql, traced, refs, now, new Date(now.getTime() + this.leaseMs()));
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
    let claimed: ClaimedRow | null = null;
    try {
      // Its own attempt records the outcome and schedules the next one.
      if (!this.inFlight.has(ref.id)) claimed = await this.claims.add(ref);
    } finally {
      if (claimed?.status !== 'sending') this.slots.release();
    }
    if (!claimed) return {};
    if (claimed.status !== 'sending') return claimed.status === 'cancelled' ? { completedWebhookId: claimed.webhook_id } : {};
    this.inFlight.add(claimed.id);
    try {
      return await this.attempt(claimed);
    } finally {
      this.inFlight.delete(claimed.id);
    }
  }

  /** Sends the claimed attempt, releases its slot once answered, and records the outcome. */
  private async attempt(claimed: ClaimedRow): Promise<AttemptResult> {
    let outcome: SendOutcome;
    let at: Date;
    try {
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
      await this.recorded(claimed, () => this.successes.add({ row: claimed, outcome, at, done }));
      return { completedWebhookId: claimed.webhook_id };
    }
    return this.recorded(claimed, () => this.recordFailure(claimed, outcome, at, done));
  }

  /** The record of a sent attempt, tried again after a failure (a lock or statement time-out, a lost answer). */
  private async recorded<T>(row: ClaimedRow, record: () => Promise<T>): Promise<T> {
    for (let tries = 1; ; tries++) {
      try {
        return await record();
      } catch (err) {
        if (tries >= recordTries) throw err;
        this.engine.log.warn({ err, deliveryId: row.id, attempt: row.attempt_count }, 'recording a webhook attempt failed; trying again');
        await new Promise((resolve) => setTimeout(resolve, recordRetryMs * tries));
      }
    }
  }

  /** The rows of many successes in one statement; the webhooks only when a counter or an Unverified status changes. */
  private async recordSuccesses(items: Success[]): Promise<void> {
    await recordSuccesses(this.engine.sql, items, this.engine.clock.now());
  }

  private async recordFailure(row: ClaimedRow, outcome: SendOutcome, at: Date, done: Date): Promise<AttemptResult> {
    const engine = this.engine;
    const exhausted = outcome.retryable && row.attempt_count >= engine.maxAttempts;
    const final = !outcome.retryable || exhausted;
    const next = final ? null : new Date(done.getTime() + engine.delayBefore(row.attempt_count + 1) * 1000);
    const record: FailureRecord = {
      status: final ? 'failed' : 'pending',
      lease_until: null,
      next_attempt_at: next,
      last_attempt_at: at,
      response_status: outcome.status,
      latency_ms: outcome.latencyMs,
      response_excerpt: outcome.excerpt,
      error: failureText(outcome, final),
      completed_at: final ? done : null,
    };
    // One statement: the webhook's row, which every failure of its deliveries counts on, is locked only while it
    // runs, never across a round trip of this node (a starved node would hold up every other record of the webhook).
    let recorded: { paused: string | null } | null;
    if (exhausted) recorded = await inTransaction(engine.sql, (client) => this.recordLastFailure(client, row, record, done));
    else recorded = (await recordedAndCounted(engine.sql, row, record)) ? { paused: null } : null;
    // Another node took the lease over (this attempt outlived it): its record stands.
    if (!recorded) return {};
    if (next) await engine.enqueue([{ id: row.id, round: row.round, attempt: row.attempt_count + 1, dueAt: next }]);
    return { ...(final ? { completedWebhookId: row.webhook_id } : {}), ...(recorded.paused ? { pausedWebhookId: recorded.paused } : {}) };
  }

  /** The last attempt failed: recorded, counted, and the webhook paused (with a notice for its Owner). */
  private async recordLastFailure(
    client: Runner,
    row: ClaimedRow,
    record: FailureRecord,
    done: Date,
  ): Promise<{ paused: string | null } | null> {
    if (!(await recordedAndCounted(client, row, record))) return null;
    const webhook = await pauseAfterFailures(client, row.webhook_id, done);
    if (!webhook) return { paused: null };
    await webhookOutbox(client, 'webhook.paused', webhook, { reason: 'failures', deliveryId: row.id });
    return { paused: webhook.id };
  }
}
