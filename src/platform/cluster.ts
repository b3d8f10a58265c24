// WORKERS > 1: one primary process and that many worker processes (node:cluster) serving the same ports, so one
// machine uses every core. The primary starts the embedded PostgreSQL and redis-server when no URLs are configured
// and hands their URLs to the workers; each worker is a complete node of the platform (listeners, caches
// invalidated through Redis, outbox relay), exactly as several machines would run it. The primary accepts
// connections and deals them out round robin; a worker that dies is replaced; SIGTERM stops the workers (each
// drains as a single process does, within SHUTDOWN_TIMEOUT_MS), then the local servers.
import cluster, { type Worker } from 'node:cluster';
import type { Config } from './config/index.js';
import { resolveInfra, type Infra } from './infra/index.js';
import type { Logger } from './logger.js';
import { clusterExposition } from './metrics/cluster.js';
import { startOperationsListener, type OperationsListener } from './metrics/operations-listener.js';

/** Message a worker sends the primary once its listeners are up. */
export const workerReadyMessage = 'platform:worker-ready';

export function isClusterWorker(): boolean {
  return cluster.isWorker;
}

/** In a worker: tells the primary this node is serving. */
export function announceReady(): void {
  if (cluster.isWorker) process.send?.({ type: workerReadyMessage });
}

/**
 * How much longer than SHUTDOWN_TIMEOUT_MS the primary gives a worker before SIGKILL: the worker's own bound comes
 * first, so it ends its drain by itself and logs why; SIGKILL is left for a worker whose event loop is stuck.
 */
export const workerKillMarginMs = 2_000;

/** When the primary kills a worker still running after SIGTERM. */
export function workerKillAfterMs(shutdownTimeoutMs: number): number {
  return shutdownTimeoutMs + workerKillMarginMs;
}

/** The primary's own bound: its workers' kill time plus the same margin again to stop the embedded servers. */
export function primaryShutdownBoundMs(shutdownTimeoutMs: number): number {
  return workerKillAfterMs(shutdownTimeoutMs) + workerKillMarginMs;
}

/**
 * Runs the primary: infrastructure, then `config.workers` workers. Resolves once every worker is serving; the
 * returned stop() ends the workers, then the local servers.
 */
export async function startPrimary(
  config: Config,
  log: Logger,
): Promise<{ databaseUrl: string; metricsUrl?: string; stop(): Promise<void> }> {
  const infra: Infra = await resolveInfra(config, log);
  const env = { DATABASE_URL: infra.databaseUrl, REDIS_URL: infra.redisUrl };
  const killAfterMs = workerKillAfterMs(config.shutdownTimeoutMs);
  let stopping = false;
  const ready = new Set<number>();

  const fork = (): Worker => cluster.fork(env);
  cluster.on('message', (worker: Worker, msg: { type?: string }) => {
    if (msg?.type === workerReadyMessage) ready.add(worker.id);
  });
  try {
    await forkAll(config.workers, ready, fork);
  } catch (err) {
    stopping = true;
    await stopWorkers(log, killAfterMs);
    await infra.stop();
    throw err;
  }
  log.info({ workers: config.workers }, 'every worker is serving');
  const metrics = await startClusterMetrics(config, log, ready);

  // A worker that dies after start is replaced, so the node keeps its capacity.
  cluster.on('exit', (worker, code, signal) => {
    ready.delete(worker.id);
    if (stopping) return;
    log.error({ workerPid: worker.process.pid, code, signal }, 'worker exited; starting a replacement');
    fork();
  });

  let stopped: Promise<void> | undefined;
  return {
    databaseUrl: infra.databaseUrl,
    metricsUrl: metrics?.url,
    stop() {
      stopping = true;
      stopped ??= (async () => {
        await metrics?.close();
        await stopWorkers(log, killAfterMs);
        await infra.stop();
      })();
      return stopped;
    },
  };
}

/**
 * Forks the workers and resolves once each is serving. All start together: the first applies pending migrations
 * under an advisory lock, the others wait. A worker that exits before it serves fails the start.
 */
async function forkAll(count: number, ready: Set<number>, fork: () => Worker): Promise<void> {
  const started = new Promise<void>((resolve, reject) => {
    const onExit = (worker: Worker, code: number | null, signal: string | null) => {
      if (!ready.has(worker.id)) {
        cluster.off('exit', onExit);
        reject(new Error(`worker ${worker.process.pid} exited during start (code ${code}, signal ${signal}); its error is above`));
      }
    };
    cluster.on('exit', onExit);
    // Registered after the primary's ready handler, so it sees the worker it is told about already counted.
    const onMessage = () => {
      if (ready.size >= count) {
        cluster.off('exit', onExit);
        cluster.off('message', onMessage);
        resolve();
      }
    };
    cluster.on('message', onMessage);
  });
  for (let i = 0; i < count; i++) fork();
  await started;
}

/** METRICS_PORT: the primary serves it, with every worker's metrics aggregated; ready while every worker serves. */
async function startClusterMetrics(config: Config, log: Logger, ready: Set<number>): Promise<OperationsListener | undefined> {
  if (config.metricsPort === undefined) return undefined;
  const metrics = await startOperationsListener({
    host: config.metricsHost,
    port: config.metricsPort,
    log,
    metrics: clusterExposition,
    readiness: async () => {
      const serving = ready.size >= config.workers;
      return { ready: serving, checks: { workers: serving ? 'ok' : 'fail' } };
    },
  });
  log.info({ address: metrics.url }, 'metrics listener ready');
  return metrics;
}

/**
 * SIGTERM to every worker (each drains and exits within SHUTDOWN_TIMEOUT_MS by itself); SIGKILL to any still running
 * `killAfterMs` later (workerKillAfterMs), so a node stops within one stated bound.
 */
async function stopWorkers(log: Logger, killAfterMs: number): Promise<void> {
  const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            log.warn({ workerPid: w.process.pid }, 'worker did not stop in time; killing it');
            w.process.kill('SIGKILL');
          }, killAfterMs);
          w.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          w.process.kill('SIGTERM');
        }),
    ),
  );
}
