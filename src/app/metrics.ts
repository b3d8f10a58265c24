// Wires a platform into the metrics (src/platform/metrics): the sources its scrape-time gauges read, and the
// operations listener on METRICS_PORT. In a cluster's worker the primary serves the port and this process answers
// its scrape requests instead (src/platform/cluster.ts).
import type { Queue } from 'bullmq';
import type { Config } from '../platform/config/index.js';
import type { SqlPool } from '../platform/db/sql.js';
import type { Logger } from '../platform/logger.js';
import type { Readiness } from '../platform/readiness.js';
import { watchBotUpdates } from '../platform/metrics/bots.js';
import { answerClusterScrapes, processExposition } from '../platform/metrics/cluster.js';
import { instrumentPool } from '../platform/metrics/database.js';
import { startOperationsListener, type OperationsListener } from '../platform/metrics/operations-listener.js';
import { watchOutbox } from '../platform/outbox-metrics.js';
import { watchQueues } from '../platform/metrics/queues.js';
import { collectProcessMetrics } from '../platform/metrics/registry.js';
import { watchRealtime, type RealtimeCounts } from '../platform/metrics/realtime.js';
import { pendingBotUpdateCount } from './queries.js';

/** Lists the platform's database, outbox, pending bot updates and queues for the scrape; returns the removal. */
export function watchPlatform(sql: SqlPool, queues: readonly Queue[]): () => void {
  const removals = [
    instrumentPool(sql, 'sql'),
    watchOutbox(sql),
    // Rows of bot_updates are the updates no getUpdates call has confirmed and no webhook has taken.
    watchBotUpdates(() => pendingBotUpdateCount(sql)),
    watchQueues(queues),
  ];
  return () => removals.forEach((remove) => remove());
}

/** Lists a realtime gateway's sessions and subscriptions for the scrape; returns the removal. */
export function watchGateway(gateway: RealtimeCounts): () => void {
  return watchRealtime(gateway);
}

/**
 * With METRICS_PORT set: process metrics on, and either the operations listener (one process) or answers to the
 * cluster primary's scrapes (a worker). Undefined when this process serves no port.
 */
export async function startMetrics(
  config: Config,
  log: Logger,
  readiness: () => Promise<Readiness>,
  clusterWorker: boolean,
): Promise<OperationsListener | undefined> {
  if (config.metricsPort === undefined) return undefined;
  collectProcessMetrics();
  if (clusterWorker) {
    answerClusterScrapes();
    return undefined;
  }
  const listener = await startOperationsListener({
    host: config.metricsHost,
    port: config.metricsPort,
    log,
    metrics: processExposition,
    readiness,
  });
  log.info({ address: listener.url }, 'metrics listener ready');
  return listener;
}
