// BullMQ queues: jobs by state and finished jobs by outcome, read from Redis at scrape time (nothing per job in this
// process). Finished counts come from BullMQ's own metrics, which its workers keep in Redis when started with
// `workerMetrics`. Both are the same for every process on one Redis.
import { Counter, Gauge } from 'prom-client';
import type { Queue, MetricsOptions } from 'bullmq';
import { metricsRegistry } from './registry.js';
import { ScrapeSources } from './scrape-sources.js';

const queues = new ScrapeSources<Queue>();

const states = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;

/** Worker option: BullMQ counts finished jobs in Redis (in its finishing script), an hour of per-minute points kept. */
export const workerMetrics: MetricsOptions = { maxDataPoints: 60 };

/** Every queue listed once, whichever platform in this process registered it. */
function distinctQueues(): Queue[] {
  const byName = new Map<string, Queue>();
  for (const q of queues.all) if (!byName.has(q.name)) byName.set(q.name, q);
  return [...byName.values()];
}

new Gauge({
  name: 'platform_queue_jobs',
  help: 'Jobs of a BullMQ queue by state (waiting, active, delayed, prioritized, failed and kept)',
  labelNames: ['queue', 'state'] as const,
  registers: [metricsRegistry],
  aggregator: 'max',
  async collect() {
    const counts = await Promise.all(distinctQueues().map(async (q) => [q.name, await q.getJobCounts(...states)] as const));
    this.reset();
    for (const [queue, byState] of counts) for (const state of states) this.set({ queue, state }, byState[state] ?? 0);
  },
});

new Counter({
  name: 'platform_queue_jobs_finished_total',
  help: 'Jobs of a BullMQ queue finished, by outcome (completed, failed), as BullMQ counts them in Redis',
  labelNames: ['queue', 'outcome'] as const,
  registers: [metricsRegistry],
  aggregator: 'max',
  async collect() {
    const totals = await Promise.all(
      distinctQueues().map(async (q) => {
        const [completed, failed] = await Promise.all([q.getMetrics('completed', 0, 0), q.getMetrics('failed', 0, 0)]);
        return [q.name, completed.meta.count, failed.meta.count] as const;
      }),
    );
    this.reset();
    for (const [queue, completed, failed] of totals) {
      this.inc({ queue, outcome: 'completed' }, completed);
      this.inc({ queue, outcome: 'failed' }, failed);
    }
  },
});

/** Lists queues for the scrape-time collectors; returns their removal. */
export function watchQueues(list: readonly Queue[]): () => void {
  const removals = list.map((q) => queues.add(q));
  return () => removals.forEach((remove) => remove());
}
