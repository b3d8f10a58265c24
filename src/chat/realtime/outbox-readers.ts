// What the realtime gateway registers with the outbox relay: the per-account event log, recorded in the drain's
// transaction and announced to every node after its commit, and the log's pruning.
import type { SqlPool } from '../../platform/db/sql.js';
import type { OutboxLog } from '../../platform/outbox.js';
import type { PruneTask } from '../../platform/queues.js';
import { publishDeliveries } from './delivery.js';
import { pruneEventLog } from './log-pruning.js';
import { recordUserEvents } from './log.js';

export const realtimeEventLog: OutboxLog = async (client, rows, redis) => {
  const deliveries = await recordUserEvents(client, [...rows]);
  // Each announcement carries its producer's span context, for the delivering node's span to link to.
  const traced = new Map(rows.filter((r) => r.trace_context).map((r) => [String(r.id), r.trace_context!]));
  for (const d of deliveries) {
    const traceContext = traced.get(d.id);
    if (traceContext) d.traceContext = traceContext;
  }
  return () => publishDeliveries(redis, deliveries);
};

/** The event log keeps REALTIME_RETENTION_HOURS (at least 24) for resume-after. */
export function eventLogPruneTask(sql: SqlPool, retentionHours: number): PruneTask {
  return {
    scheduler: 'realtime-log-prune',
    job: 'prune-realtime-log',
    everyMs: 3_600_000,
    run: (now) => pruneEventLog(sql, retentionHours, now),
  };
}
