// The worker of the `time` queue: timers ("due" jobs) of scheduled messages and reminders, the sweep that fires due
// rows whose timer never arrived (a Redis that lost jobs, a job added while Redis was down, a worker killed
// mid-job), and the cleanup of upload sessions. Any number of worker processes may run it: firing is idempotent
// (src/chat/scheduled/fire.ts, src/chat/reminders/fire.ts).
import { Worker, type Job } from 'bullmq';
import type { Logger } from '../../platform/logger.js';
import { queuePrefix, timeQueueName } from '../../platform/queues.js';
import { connectRedis } from '../../platform/redis.js';
import type { MediaStore } from '../../core/media/store.js';
import { cleanupUploads } from '../media/cleanup.js';
import { fireDueReminders } from '../reminders/fire.js';
import { fireDueScheduled, type FireDeps } from '../scheduled/fire.js';
import { armTimer, type TimerData } from '../base/timers/arm.js';
import { closeWorker } from '../../platform/worker-close.js';
import { workerMetrics } from '../../platform/metrics/queues.js';
import { reportQueueErrors } from '../../platform/queue-errors.js';

const batch = 100;

export interface TimeDeps extends FireDeps {
  media: MediaStore;
}

/** Fires everything due by the clock, batch after batch; what the periodic sweep and every timer job run. */
export async function sweepDue(deps: FireDeps): Promise<{ scheduled: number; reminders: number }> {
  let scheduled = 0;
  let reminders = 0;
  for (let n = batch; n === batch; scheduled += n) n = await fireDueScheduled(deps, batch);
  for (let n = batch; n === batch; reminders += n) n = await fireDueReminders(deps, batch);
  return { scheduled, reminders };
}

export interface TimeWorkers {
  close(): Promise<void>;
}

export async function startTimeWorkers(
  deps: TimeDeps,
  redisUrl: string,
  options: { sweepMs: number; cleanupMs: number },
  log: Logger,
): Promise<TimeWorkers> {
  const connection = connectRedis(redisUrl, 'time-worker', { blocking: true });
  await deps.queues.time.upsertJobScheduler('time-sweep', { every: options.sweepMs }, { name: 'sweep' });
  await deps.queues.time.upsertJobScheduler('upload-cleanup', { every: options.cleanupMs }, { name: 'upload-cleanup' });
  const worker = new Worker(
    timeQueueName,
    async (job: Job) => {
      switch (job.name) {
        case 'due': {
          // A job that runs before its slice ends by the clock (another node's clock, or a test's clock that did not
          // move) is armed again for the rest of the time.
          const at = (job as Job<TimerData>).data.at;
          if (deps.clock.now().getTime() < at) {
            await armTimer(deps.queues, deps.clock, new Date(at), Date.now());
            return { early: true };
          }
          return sweepDue(deps);
        }
        case 'sweep':
          return sweepDue(deps);
        case 'upload-cleanup':
          return cleanupUploads(deps, deps.media);
        default:
          return null;
      }
    },
    { connection, prefix: queuePrefix(connection, timeQueueName), concurrency: 4, metrics: workerMetrics },
  );
  worker.on('failed', (job, err) => log.error({ err, job: job?.name }, 'time job failed'));
  reportQueueErrors(log, timeQueueName, worker);
  return {
    async close() {
      await closeWorker(worker);
      connection.disconnect();
    },
  };
}
