// The SLA timer of a ticket: a delayed BullMQ job at its deadline; PostgreSQL stays the record of truth. The job
// locks the ticket and marks it breached (ticket.sla_breached, in the same transaction) only when it is still open
// or pending, not yet breached, and due by the injected clock; so it fires once, and never for a ticket resolved in
// time. A job that runs early (a clock behind the queue's) waits again; a job for a deadline that has since moved
// ends, the move having queued its own. A periodic sweep catches timers lost between a commit and the queueing.
import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import type { Clock } from '../../platform/clock.js';
import type { Logger } from '../../platform/logger.js';
import { connectRedis } from '../../platform/redis.js';
import { queuePrefix } from '../../platform/queues.js';
import { changesOf } from '../../core/events/changes.js';
import { withEvents, type EventDeps } from '../../core/events/outbox.js';
import { slaRunning } from './lifecycle.js';
import { ticketView } from './views.js';
import { lockTicketById, markSlaBreached, overdueTicketIds, ticketScope } from './queries.js';
import { closeWorker } from '../../platform/worker-close.js';
import { workerMetrics } from '../../platform/metrics/queues.js';
import { reportQueueErrors } from '../../platform/queue-errors.js';

export const slaQueueName = 'ticket-sla';
const sweepEveryMs = 60_000;
const sweepBatch = 200;

interface SlaJobData {
  ticketId: string;
  /** The deadline the job was queued for, in ms. */
  dueAt: number;
}

/** One job per ticket and deadline: queueing the same timer twice queues it once. */
export function slaJobId(ticketId: string, dueAt: Date): string {
  return `sla-${ticketId}-${dueAt.getTime()}`;
}

export class SlaTimers {
  constructor(
    private readonly queue: Queue,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** Queues the timer after the ticket's commit; a failure is logged and left to the sweep. */
  schedule(ticketId: string, dueAt: Date): void {
    const data: SlaJobData = { ticketId, dueAt: dueAt.getTime() };
    this.queue
      .add('check', data, {
        jobId: slaJobId(ticketId, dueAt),
        delay: Math.max(0, dueAt.getTime() - this.clock.now().getTime()),
        removeOnComplete: true,
        removeOnFail: 1000,
      })
      .catch((err: unknown) => this.log.warn({ err, ticketId }, 'could not queue a ticket SLA timer'));
  }
}

export function createSlaQueue(redisUrl: string, log: Logger): { queue: Queue; close(): Promise<void> } {
  const connection = connectRedis(redisUrl, 'sla-queue');
  const queue = new Queue(slaQueueName, { connection, prefix: queuePrefix(connection, slaQueueName) });
  reportQueueErrors(log, slaQueueName, queue);
  return {
    queue,
    async close() {
      await queue.close();
      connection.disconnect();
    },
  };
}

export type SlaOutcome = { state: 'breached' } | { state: 'done' } | { state: 'moved' } | { state: 'early'; dueAt: Date };

/** Judges one ticket's SLA now; `dueAt` is the deadline the timer was set for (undefined: the sweep). */
export async function checkSla(deps: EventDeps, ticketId: string, dueAt?: number): Promise<SlaOutcome> {
  const scope = await ticketScope(deps.sql, ticketId);
  if (!scope) return { state: 'done' };
  return withEvents(deps, deps.sql, { workspaceId: scope.workspace_id, environment: scope.environment }, async (tx, sink, now) => {
    const before = (await lockTicketById(tx, ticketId))!;
    if (before.sla_breached_at || !slaRunning(before.status)) return { state: 'done' } as const;
    if (dueAt !== undefined && before.sla_due_at.getTime() !== dueAt) return { state: 'moved' } as const;
    if (before.sla_due_at.getTime() > now.getTime()) return { state: 'early', dueAt: before.sla_due_at } as const;
    const view = ticketView(await markSlaBreached(tx, ticketId, now));
    sink.emit('ticket.sla_breached', view, changesOf(ticketView(before), view, ['sla_breached_at']));
    return { state: 'breached' } as const;
  });
}

/** Judges every ticket past its deadline by the clock and not yet breached (timers lost on the way to the queue). */
export async function sweepSla(deps: EventDeps): Promise<number> {
  const due = await overdueTicketIds(deps.sql, deps.clock.now(), sweepBatch);
  let breached = 0;
  for (const id of due) if ((await checkSla(deps, id)).state === 'breached') breached++;
  return breached;
}

export async function startSlaWorker(deps: EventDeps, redisUrl: string, queue: Queue, log: Logger): Promise<{ close(): Promise<void> }> {
  const connection = connectRedis(redisUrl, 'sla-worker', { blocking: true });
  await queue.upsertJobScheduler(
    'ticket-sla-sweep',
    { every: sweepEveryMs },
    { name: 'sweep', opts: { removeOnComplete: 10, removeOnFail: 100 } },
  );
  const worker = new Worker(
    slaQueueName,
    async (job: Job, token?: string) => {
      if (job.name === 'sweep') return { breached: await sweepSla(deps) };
      const data = job.data as SlaJobData;
      const outcome = await checkSla(deps, data.ticketId, data.dueAt);
      if (outcome.state === 'early') {
        await job.moveToDelayed(Date.now() + Math.max(1000, outcome.dueAt.getTime() - deps.clock.now().getTime()), token);
        throw new DelayedError();
      }
      return outcome;
    },
    { connection, prefix: queuePrefix(connection, slaQueueName), concurrency: 4, metrics: workerMetrics },
  );
  worker.on('failed', (job, err) => log.error({ err, job: job?.name }, 'ticket SLA job failed'));
  reportQueueErrors(log, slaQueueName, worker);
  return {
    async close() {
      await closeWorker(worker);
      connection.disconnect();
    },
  };
}
