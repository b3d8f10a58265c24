// BullMQ queues of the platform. The outbox is drained right after every commit that wrote events: by this
// process's own relay when it runs the workers (coalesced: a burst of sends costs one drain, and no Redis round
// trip per send), else by a "drain" job on the outbox queue (deduplicated); a job scheduler runs a drain
// periodically as a safety net for a process that died between commit and request.
import { Queue, Worker, type Job } from 'bullmq';
import type { SqlPool } from './db/sql.js';
import type { Logger } from './logger.js';
import { drainOutbox, pruneOutbox, type OutboxReaders } from './outbox.js';
import { connectRedis, isCluster, type Redis } from './redis.js';
import { closeWorker } from './worker-close.js';
import { localDrain } from './local-drain.js';
import { workerMetrics } from './metrics/queues.js';
import { reportQueueErrors } from './queue-errors.js';

export const outboxQueueName = 'outbox';
export const maintenanceQueueName = 'maintenance';
export const timeQueueName = 'time';
const drainCoalesceMs = 5;

/**
 * BullMQ's key prefix for a queue. BullMQ's scripts touch many keys of a queue at once, which a cluster allows only
 * within one slot: there each queue's keys carry a hash tag of their own ({<queue>}), so the queues spread over the
 * masters. On one server the keys keep BullMQ's default prefix, and the jobs already queued there stay found.
 */
export function queuePrefix(connection: Redis, queue: string): string {
  return isCluster(connection) ? `{${queue}}` : 'bull';
}

export interface Queues {
  outbox: Queue;
  /** Periodic housekeeping registered by the features (PruneTask): Idempotency-Key records, audit entries, the realtime event log, bot updates. */
  maintenance: Queue;
  /** Delayed jobs of scheduled messages and reminders, their sweeper and upload cleanup (src/chat/time). */
  time: Queue;
  /** Asks a worker to drain the outbox soon; never throws (the periodic drain catches up). */
  requestOutboxDrain(): void;
  /**
   * In a process that runs the workers, requests drain in-process instead of through a BullMQ job: the realtime
   * fan-out then starts within a millisecond of the commit. null goes back to jobs; the promise settles when a
   * local drain under way has finished.
   */
  drainLocally(drain: (() => Promise<unknown>) | null): Promise<void>;
  close(): Promise<void>;
}

export function createQueues(redisUrl: string, log: Logger, relayIntervalMs = 0): Queues {
  const connection = connectRedis(redisUrl, 'queues');
  const outbox = new Queue(outboxQueueName, {
    connection,
    prefix: queuePrefix(connection, outboxQueueName),
    defaultJobOptions: { removeOnComplete: 100, removeOnFail: 1000 },
  });
  const maintenance = new Queue(maintenanceQueueName, {
    connection,
    prefix: queuePrefix(connection, maintenanceQueueName),
    defaultJobOptions: { removeOnComplete: 10, removeOnFail: 100 },
  });
  const time = new Queue(timeQueueName, {
    connection,
    prefix: queuePrefix(connection, timeQueueName),
    defaultJobOptions: { removeOnComplete: true, removeOnFail: 1000 },
  });
  reportQueueErrors(log, 'queues', outbox, maintenance, time);
  // Requests within a few milliseconds of each other share one job: under load a drain then publishes a batch
  // instead of one row, and sends do not each pay a Redis round trip.
  let pending: NodeJS.Timeout | undefined;
  const relay = localDrain(log, relayIntervalMs);
  return {
    outbox,
    maintenance,
    drainLocally: (drain) => relay.use(drain),
    time,
    requestOutboxDrain() {
      if (relay.active) return relay.request();
      if (pending) return;
      pending = setTimeout(() => {
        pending = undefined;
        outbox
          .add('drain', {}, { deduplication: { id: 'drain' } })
          .catch((err: unknown) => log.warn({ err }, 'could not request an outbox drain'));
      }, drainCoalesceMs);
    },
    async close() {
      if (pending) clearTimeout(pending);
      await relay.close();
      await outbox.close();
      await maintenance.close();
      await time.close();
      connection.disconnect();
    },
  };
}

/** Periodic housekeeping a feature registers: run every `everyMs` on the maintenance queue, returning rows removed. */
export interface PruneTask {
  /** The job scheduler's id (stable: a renamed scheduler leaves the old one running in Redis). */
  scheduler: string;
  /** The job's name. */
  job: string;
  everyMs: number;
  run(now: Date): Promise<number>;
}

export interface Workers {
  close(): Promise<void>;
}

export async function startWorkers(
  sql: SqlPool,
  redisUrl: string,
  queues: Queues,
  pollMs: number,
  log: Logger,
  options: { readers?: OutboxReaders; pruneTasks?: readonly PruneTask[] } = {},
): Promise<Workers> {
  const { readers = {}, pruneTasks = [] } = options;
  // failFast: a drain while Redis is down fails and rolls back at once (its rows stay for the next drain) instead of
  // holding its rows and a database connection until Redis returns.
  const publisher: Redis = connectRedis(redisUrl, 'outbox-publisher', { failFast: true });
  const connection = connectRedis(redisUrl, 'workers', { blocking: true });
  await queues.outbox.upsertJobScheduler('outbox-drain-safety-net', { every: pollMs }, { name: 'drain' });
  await queues.outbox.upsertJobScheduler('outbox-prune', { every: 3_600_000 }, { name: 'prune' });
  // Keep draining while full batches come back, so one call empties a backlog.
  const drainAll = async () => {
    let published = 0;
    for (;;) {
      const n = await drainOutbox(sql, publisher, 500, readers);
      published += n;
      if (n < 500) return published;
    }
  };
  const worker = new Worker(
    outboxQueueName,
    async (job: Job) => {
      if (job.name === 'prune') return { pruned: await pruneOutbox(sql) };
      // A request deduplicated against a drain already running would be lost (its rows committed after this drain
      // read the table): from now on requests queue a new drain.
      await job.removeDeduplicationKey();
      return { published: await drainAll() };
    },
    { connection, prefix: queuePrefix(connection, outboxQueueName), concurrency: 1, metrics: workerMetrics },
  );
  void queues.drainLocally(drainAll);
  worker.on('failed', (job, err) => log.error({ err, job: job?.name }, 'outbox job failed'));

  for (const task of pruneTasks) await queues.maintenance.upsertJobScheduler(task.scheduler, { every: task.everyMs }, { name: task.job });
  const tasksByJob = new Map(pruneTasks.map((task) => [task.job, task]));
  const maintenance = new Worker(
    maintenanceQueueName,
    async (job: Job) => {
      const task = tasksByJob.get(job.name);
      if (!task) throw new Error(`no prune task is registered for the job ${job.name}`);
      return { pruned: await task.run(new Date()) };
    },
    { connection, prefix: queuePrefix(connection, maintenanceQueueName), concurrency: 1, metrics: workerMetrics },
  );
  maintenance.on('failed', (job, err) => log.error({ err, job: job?.name }, 'maintenance job failed'));
  reportQueueErrors(log, 'workers', worker, maintenance);
  return {
    async close() {
      await queues.drainLocally(null);
      await closeWorker(maintenance);
      await closeWorker(worker);
      connection.disconnect();
      publisher.disconnect();
    },
  };
}
