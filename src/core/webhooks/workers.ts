// What a worker node runs for webhooks: the BullMQ worker of delivery attempts, the notifier of paused webhooks'
// Owners, and a sweeper (a timer of its own, so that it survives the loss of Redis's data) that every
// WEBHOOK_SWEEP_MS re-enqueues due deliveries whose job was lost (a Redis restart, a crash between commit and
// enqueue), retries pending notices, prunes the logs of webhooks that completed deliveries (200 kept), and asks for
// an outbox drain when events wait unpublished (the drain's own scheduler lives in Redis too).
import { Worker, type Job } from 'bullmq';
import { connectRedis } from '../../platform/redis.js';
import { queuePrefix } from '../../platform/queues.js';
import { AttemptRunner } from './attempts.js';
import { deliveryQueueName, type DeliveryJob, type WebhookEngine } from './engine.js';
import { PauseNotifier } from './notifier.js';
import type { ScheduledAttempt } from './rows.js';
import { eventsWaitingLongerThan, lostDeliveries, pruneDeliveries } from './sweep-queries.js';
import { closeWorker } from '../../platform/worker-close.js';
import { workerMetrics } from '../../platform/metrics/queues.js';
import { reportQueueErrors } from '../../platform/queue-errors.js';

export const logSize = 200;
const sweepBatch = 1_000;

export interface WebhookWorkers {
  /** One pass of the sweeper now (tests and shutdown). */
  sweep(): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookWorkers(engine: WebhookEngine, requestOutboxDrain: () => void): Promise<WebhookWorkers> {
  const runner = new AttemptRunner(engine);
  const notifier = new PauseNotifier(engine);
  const completed = new Set<string>();
  const connection = connectRedis(engine.redisUrl, 'webhook-worker', { blocking: true });
  const worker = new Worker(
    deliveryQueueName,
    async (job: Job<DeliveryJob>) => {
      await Promise.all(
        job.data.items.map(async (ref) => {
          try {
            const result = await runner.run(ref);
            if (result.completedWebhookId) completed.add(result.completedWebhookId);
            if (result.pausedWebhookId) void notifier.notify(result.pausedWebhookId);
          } catch (err) {
            // The row stays as it was (pending, or sending until its lease ends): the sweeper takes it up again.
            engine.log.warn({ err, deliveryId: ref.id }, 'webhook attempt failed');
          }
        }),
      );
    },
    // Jobs carry many attempts; the runner bounds how many are in flight.
    { connection, prefix: queuePrefix(connection, deliveryQueueName), concurrency: 8, metrics: workerMetrics },
  );
  worker.on('failed', (job, err) => engine.log.error({ err, deliveries: job?.data.items.length }, 'webhook delivery job failed'));
  reportQueueErrors(engine.log, deliveryQueueName, worker);

  let running: Promise<void> | null = null;
  const sweepOnce = async () => {
    const now = engine.clock.now();
    const overdue = new Date(now.getTime() - engine.settings.sweepMs);
    const due = await lostDeliveries(engine.sql, overdue, now, sweepBatch);
    const attempts: ScheduledAttempt[] = due.map((r) => ({
      id: r.id,
      round: r.round,
      attempt: r.status === 'pending' ? r.attempt_count + 1 : r.attempt_count,
      dueAt: r.next_attempt_at,
    }));
    await engine.enqueue(attempts);
    await notifier.retryPending();
    const webhooks = [...completed];
    completed.clear();
    for (const id of webhooks) await pruneLog(engine, id);
    if (await eventsWaitingLongerThan(engine.sql, engine.settings.sweepMs)) requestOutboxDrain();
  };
  const sweep = () => {
    running ??= sweepOnce()
      .catch((err: unknown) => engine.log.warn({ err }, 'webhook sweep failed'))
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => void sweep(), engine.settings.sweepMs);
  timer.unref();
  return {
    sweep,
    async close() {
      clearInterval(timer);
      await running;
      await closeWorker(worker);
      notifier.close();
      connection.disconnect();
    },
  };
}

/** Finished deliveries beyond the 200 most recent of a webhook are deleted; unfinished ones always stay. */
export async function pruneLog(engine: Pick<WebhookEngine, 'sql'>, webhookId: string): Promise<number> {
  return pruneDeliveries(engine.sql, webhookId, logSize);
}
