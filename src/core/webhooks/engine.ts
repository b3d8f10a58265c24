// The delivery engine's shared parts, on every node: the secret box, the HTTPS sender, the settings, and the queue
// of delivery attempts (BullMQ delayed jobs that drive the webhook_deliveries rows, which are the record of truth).
// Worker nodes also run the worker, the sweeper and the notifier (workers.ts).
import { Queue } from 'bullmq';
import type { WebhookConfig } from '../../platform/config/index.js';
import type { Clock } from '../../platform/clock.js';
import type { SqlPool } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import type { Logger } from '../../platform/logger.js';
import { connectRedis, type Redis } from '../../platform/redis.js';
import { queuePrefix } from '../../platform/queues.js';
import { envelopeText, newEventId } from './events.js';
import { deliveryHeaders } from './headers.js';
import type { ScheduledAttempt } from './rows.js';
import { resolveWebhookSecretKey, SecretBox } from './secret-box.js';
import { readCaFile, WebhookSender, type SendOutcome } from './sender.js';
import { reportQueueErrors } from '../../platform/queue-errors.js';

export const deliveryQueueName = 'webhook-deliveries';

/** One attempt of one delivery. */
export interface DeliveryRef {
  id: string;
  round: number;
  attempt: number;
}

/** A job: attempts due at the same time (up to jobSize of them). The claim of each row decides whether it runs. */
export interface DeliveryJob {
  items: DeliveryRef[];
}

export const jobSize = 100;

export interface ImmediateSend {
  webhookId: string;
  workspaceId: string;
  url: string;
  secret: string;
  headers: Record<string, string>;
  event: string;
  data: unknown;
}

export interface ImmediateResult {
  deliveryId: string;
  eventId: string;
  envelope: string;
  at: Date;
  outcome: SendOutcome;
}

export class WebhookEngine {
  readonly queue: Queue;

  constructor(
    readonly sql: SqlPool,
    readonly clock: Clock,
    readonly log: Logger,
    readonly settings: WebhookConfig,
    readonly box: SecretBox,
    readonly sender: WebhookSender,
    readonly redisUrl: string,
    private readonly connection: Redis,
  ) {
    this.queue = new Queue(deliveryQueueName, {
      connection,
      prefix: queuePrefix(connection, deliveryQueueName),
      defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
    });
    reportQueueErrors(log, deliveryQueueName, this.queue);
  }

  /** The number of attempts a delivery gets: one per entry of the schedule. */
  get maxAttempts(): number {
    return this.settings.retrySchedule.length;
  }

  /** Seconds to wait before attempt `attempt` (1-based). */
  delayBefore(attempt: number): number {
    return this.settings.retrySchedule[attempt - 1] ?? 0;
  }

  /**
   * Puts attempts on the queue, grouped by due time into jobs of up to jobSize, each delayed until it is due (plus
   * `extraDelayMs`, for writes whose transaction has not committed yet). A failure is only logged: the sweeper
   * re-enqueues due rows that have no job.
   */
  async enqueue(attempts: readonly ScheduledAttempt[], extraDelayMs = 0): Promise<void> {
    if (attempts.length === 0) return;
    const byDue = new Map<number, DeliveryRef[]>();
    for (const a of attempts) {
      const due = a.dueAt.getTime();
      const group = byDue.get(due) ?? [];
      group.push({ id: a.id, round: a.round, attempt: a.attempt });
      byDue.set(due, group);
    }
    // Due times are the platform clock's; so is the wait until them (a clock a test moves moves the jobs too).
    const now = this.clock.now().getTime();
    const jobs: Array<{ name: string; data: DeliveryJob; opts: { delay: number } }> = [];
    for (const [due, refs] of byDue) {
      for (let i = 0; i < refs.length; i += jobSize)
        jobs.push({ name: 'deliver', data: { items: refs.slice(i, i + jobSize) }, opts: { delay: Math.max(0, due - now) + extraDelayMs } });
    }
    try {
      await this.queue.addBulk(jobs);
    } catch (err) {
      this.log.warn({ err, deliveries: attempts.length }, 'could not enqueue webhook deliveries; the sweeper will');
    }
  }

  /** Signs and sends one delivery now (the save ping, a test): attempt 1, no retry. */
  async sendNow(input: ImmediateSend): Promise<ImmediateResult> {
    const at = this.clock.now();
    const deliveryId = newId();
    const eventId = newEventId();
    const envelope = envelopeText({
      id: eventId,
      event: input.event,
      occurred_at: at.toISOString(),
      workspace_id: input.workspaceId,
      api_version: 'v1',
      data: input.data,
    });
    const headers = deliveryHeaders({
      secret: input.secret,
      body: envelope,
      event: input.event,
      deliveryId: eventId,
      workspaceId: input.workspaceId,
      attempt: 1,
      timestamp: Math.floor(at.getTime() / 1000),
      custom: input.headers,
    });
    const outcome = await this.sender.post(input.url, envelope, headers);
    return { deliveryId, eventId, envelope, at, outcome };
  }

  async close(): Promise<void> {
    await this.queue.close();
    this.sender.close();
    this.connection.disconnect();
  }
}

export interface EngineOptions {
  sql: SqlPool;
  redisUrl: string;
  clock: Clock;
  log: Logger;
  settings: WebhookConfig;
}

export async function createWebhookEngine(options: EngineOptions): Promise<WebhookEngine> {
  const key = await resolveWebhookSecretKey(options.sql, options.settings.secretKey);
  const sender = new WebhookSender({
    allowPrivateTargets: options.settings.allowPrivateTargets,
    caPem: readCaFile(options.settings.caFile),
    timeoutMs: options.settings.timeoutMs,
  });
  return new WebhookEngine(
    options.sql,
    options.clock,
    options.log,
    options.settings,
    new SecretBox(key),
    sender,
    options.redisUrl,
    connectRedis(options.redisUrl, 'webhook-queue'),
  );
}
