// The queue workers of a node (SERVICES includes `workers`): the outbox relay and its readers, webhook and bot
// deliveries, scheduled messages and upload cleanup, ticket SLA timers. Each registers its stop as it starts.
import { auditPruneTask } from '../workspace/audit/service.js';
import { startSlaWorker } from '../workspace/tickets/sla.js';
import { idempotencyPruneTask } from '../partner/idempotency/prune.js';
import { WebhookWorker } from '../chat/bots/delivery/queue.js';
import { readSharedCa } from '../chat/bots/delivery/tls.js';
import { botUpdatesConsumer } from '../chat/bots/updates/consumer.js';
import { botUpdatesPruneTask } from '../chat/bots/updates/prune.js';
import { messageExpiryTask } from '../chat/retention/prune.js';
import { eventLogPruneTask, realtimeEventLog } from '../chat/realtime/outbox-readers.js';
import { erasureTask } from '../chat/erasure/job.js';
import { startTimeWorkers } from '../chat/time/worker.js';
import { readNoticesTask } from '../chat/receipts/notices.js';
import { webhookIntake } from '../core/webhooks/intake.js';
import { startWebhookWorkers, type WebhookWorkers } from '../core/webhooks/workers.js';
import { startWorkers } from '../platform/queues.js';
import { exportJobTask } from '../chat/exports/job.js';
import { exportPruneTask } from '../chat/exports/prune.js';
import type { Wiring } from './wiring.js';

export async function startQueueWorkers(w: Wiring): Promise<WebhookWorkers> {
  const { config, log, clock, shutdown } = w;
  const { sql, queues, media, infra } = w.base;
  const webhookWorkers = await startWebhookWorkers(w.webhooks, () => queues.requestOutboxDrain());
  shutdown.add(() => webhookWorkers.close());
  const botUpdates = botUpdatesConsumer({ waiters: w.botWaiters, deliveries: w.botDeliveries, log, now: () => clock.now() });
  const workers = await startWorkers(sql, infra.redisUrl, queues, config.outboxPollMs, log, {
    readers: { logs: [realtimeEventLog], consumers: [botUpdates, webhookIntake(w.webhooks)] },
    pruneTasks: [
      idempotencyPruneTask(sql),
      auditPruneTask(sql),
      eventLogPruneTask(sql, config.realtimeRetentionHours),
      botUpdatesPruneTask(sql),
      messageExpiryTask({ sql, media, clock }),
      erasureTask({ sql, clock, redis: w.base.redis, media, accounts: w.accounts }),
      exportJobTask({ sql, clock, media, log }),
      exportPruneTask({ sql, clock, media }),
      readNoticesTask(sql, clock),
    ],
  });
  shutdown.add(() => workers.close());
  const webhookWorker = new WebhookWorker(
    sql,
    infra.redisUrl,
    w.botDeliveries,
    {
      ...w.webhookPolicy,
      timeoutMs: config.botWebhookTimeoutMs,
      retryBaseMs: config.botWebhookRetryBaseMs,
      retryMaxMs: config.botWebhookRetryMaxMs,
      caPem: readSharedCa(config.webhooks.caFile),
    },
    clock,
    log,
  );
  await webhookWorker.start();
  shutdown.add(() => webhookWorker.close());
  const timeWorkers = await startTimeWorkers(
    { sql, clock, queues, media },
    infra.redisUrl,
    { sweepMs: config.scheduleSweepMs, cleanupMs: config.uploadCleanupIntervalMs },
    log,
  );
  shutdown.add(() => timeWorkers.close());
  log.info('workers started');
  return webhookWorkers;
}

/** Runs the ticket SLA timers the workspace listener queues; started after the queue is watched by the metrics. */
export async function startSlaTimers(w: Wiring): Promise<void> {
  if (!w.slaQueue) return;
  const { sql, infra } = w.base;
  const slaWorker = await startSlaWorker({ sql, clock: w.clock }, infra.redisUrl, w.slaQueue.queue, w.log);
  w.shutdown.add(() => slaWorker.close());
}
