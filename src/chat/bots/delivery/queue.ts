// Webhook delivery through the BullMQ queue "bot-webhooks": one job per bot at a time (deduplicated by bot), and
// one delivery in flight per bot (a Redis lock), oldest update first, so a bot sees its updates in order. A failed
// delivery stops the bot's queue until its retry time (doubling per consecutive failure, from
// BOT_WEBHOOK_RETRY_BASE_MS up to BOT_WEBHOOK_RETRY_MAX_MS); requests made meanwhile wait for it. A delivered
// update is removed. A sweep every minute re-requests bots with pending updates, for requests lost with a node.
import { randomUUID } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import type { Clock } from '../../../platform/clock.js';
import type { SqlPool } from '../../../platform/db/sql.js';
import type { Logger } from '../../../platform/logger.js';
import { connectRedis, type Redis } from '../../../platform/redis.js';
import { queuePrefix } from '../../../platform/queues.js';
import type { WebhookPolicy } from '../webhook-url.js';
import { postUpdate } from './post.js';
import { botsDue, markDelivered, oldestPendingUpdate, recordFailure, webhookTarget } from './queries.js';
import { webhookSecureContext } from './tls.js';
import { closeWorker } from '../../../platform/worker-close.js';
import { workerMetrics } from '../../../platform/metrics/queues.js';
import { countWebhookAttempt } from '../../../platform/metrics/webhooks.js';
import { reportQueueErrors } from '../../../platform/queue-errors.js';

export const webhookQueueName = 'bot-webhooks';
const sweepEveryMs = 60_000;
const lockMarginMs = 5_000;

export interface DeliverySettings extends WebhookPolicy {
  timeoutMs: number;
  /** The shared CA file's PEM (WEBHOOK_CA_FILE), trusted for every bot webhook. */
  caPem?: string;
  retryBaseMs: number;
  retryMaxMs: number;
}

export interface WebhookDeliveries {
  /** Asks for the bot's pending updates to be delivered (after delayMs); never throws. */
  request(botId: string, delayMs?: number): Promise<void>;
  /** Asks for delivery now, moving a retry that waits for its backoff to now (the webhook changed); never throws. */
  restart(botId: string): Promise<void>;
  close(): Promise<void>;
}

export function createWebhookDeliveries(redisUrl: string, log: Logger): WebhookDeliveries & { queue: Queue } {
  const connection = connectRedis(redisUrl, 'bot-webhooks');
  const queue = new Queue(webhookQueueName, {
    connection,
    prefix: queuePrefix(connection, webhookQueueName),
    defaultJobOptions: { removeOnComplete: 100, removeOnFail: 1000 },
  });
  reportQueueErrors(log, webhookQueueName, queue);
  return {
    queue,
    async request(botId, delayMs = 0) {
      try {
        await queue.add(
          'deliver',
          { botId },
          {
            deduplication: { id: `deliver:${botId}` },
            delay: Math.max(0, Math.round(delayMs)),
            attempts: 5,
            backoff: { type: 'exponential', delay: 1_000 },
          },
        );
      } catch (err) {
        log.warn({ err, botId }, 'could not request a webhook delivery');
      }
    },
    async restart(botId) {
      try {
        await queue.add(
          'deliver',
          { botId },
          {
            deduplication: { id: `deliver:${botId}`, reschedule: true },
            delay: 0,
            attempts: 5,
            backoff: { type: 'exponential', delay: 1_000 },
          },
        );
      } catch (err) {
        log.warn({ err, botId }, 'could not request a webhook delivery');
      }
    },
    async close() {
      await queue.close();
      connection.disconnect();
    },
  };
}

const releaseScript = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";

export class WebhookWorker {
  private readonly redis: Redis;
  private readonly workerConnection: Redis;
  private worker: Worker | undefined;

  constructor(
    private readonly sql: SqlPool,
    redisUrl: string,
    private readonly deliveries: WebhookDeliveries & { queue: Queue },
    private readonly settings: DeliverySettings,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    this.redis = connectRedis(redisUrl, 'bot-webhook-locks');
    this.workerConnection = connectRedis(redisUrl, 'bot-webhook-worker', { blocking: true });
    this.worker = new Worker(webhookQueueName, (job: Job) => this.process(job), {
      connection: this.workerConnection,
      prefix: queuePrefix(this.workerConnection, webhookQueueName),
      concurrency: 16,
      metrics: workerMetrics,
    });
    this.worker.on('failed', (job, err) => log.error({ err, job: job?.name }, 'webhook job failed'));
    reportQueueErrors(log, webhookQueueName, this.worker);
  }

  async start(): Promise<void> {
    await this.deliveries.queue.upsertJobScheduler('bot-webhook-sweep', { every: sweepEveryMs }, { name: 'sweep' });
  }

  private async process(job: Job): Promise<unknown> {
    if (job.name === 'sweep') return { requested: await this.sweep() };
    const botId = (job.data as { botId: string }).botId;
    // Requests made while this job runs must queue another job instead of being deduplicated away.
    await job.removeDeduplicationKey();
    const lock = `bot:webhook:lock:${botId}`;
    const owner = randomUUID();
    const lockMs = this.settings.timeoutMs + lockMarginMs;
    if ((await this.redis.set(lock, owner, 'PX', lockMs, 'NX')) !== 'OK') {
      // Another delivery of this bot is in flight; look again shortly.
      await this.deliveries.request(botId, 200);
      return { busy: true };
    }
    try {
      return await this.deliverPending(botId, lock, lockMs);
    } finally {
      await this.redis.eval(releaseScript, 1, lock, owner);
    }
  }

  /** Delivers the bot's updates one by one until none is left or one fails. */
  private async deliverPending(botId: string, lock: string, lockMs: number): Promise<{ delivered: number }> {
    let delivered = 0;
    for (;;) {
      const bot = await webhookTarget(this.sql, botId);
      if (!bot || bot.webhook_url === null) return { delivered };
      const now = this.clock.now();
      if (bot.webhook_retry_at && bot.webhook_retry_at > now) {
        await this.deliveries.request(botId, bot.webhook_retry_at.getTime() - now.getTime());
        return { delivered };
      }
      const update = await oldestPendingUpdate(this.sql, botId);
      if (!update) return { delivered };
      await this.redis.pexpire(lock, lockMs);
      const trust = webhookSecureContext(this.settings.caPem, bot.webhook_certificate);
      const outcome = await postUpdate(
        bot.webhook_url,
        JSON.stringify(update.payload),
        bot.webhook_secret,
        this.settings,
        this.settings.timeoutMs,
        trust,
      );
      countWebhookAttempt('bot', outcome.ok, bot.webhook_failures + 1);
      if (outcome.ok) {
        await markDelivered(this.sql, botId, update.update_id);
        delivered += 1;
        continue;
      }
      const failures = bot.webhook_failures + 1;
      const delay = Math.min(this.settings.retryBaseMs * 2 ** Math.min(failures - 1, 30), this.settings.retryMaxMs);
      const at = this.clock.now();
      // Only while the webhook is still the one posted to: a failure of a URL changed or removed meanwhile must not
      // show in getWebhookInfo, nor hold back the new URL's first attempt.
      const recorded = await recordFailure(this.sql, botId, {
        url: bot.webhook_url,
        failures,
        retryAt: new Date(at.getTime() + delay),
        at,
        message: outcome.error.slice(0, 500),
      });
      if (!recorded) continue;
      this.log.info({ botId, failures, error: outcome.error }, 'webhook delivery failed');
      await this.deliveries.request(botId, delay);
      return { delivered };
    }
  }

  private async sweep(): Promise<number> {
    const now = this.clock.now();
    const due = await botsDue(this.sql, now);
    for (const id of due) await this.deliveries.request(id);
    return due.length;
  }

  async close(): Promise<void> {
    if (this.worker) await closeWorker(this.worker);
    this.worker = undefined;
    this.redis.disconnect();
    this.workerConnection.disconnect();
  }
}
