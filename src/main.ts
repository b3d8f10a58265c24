// Process entry: configuration → infrastructure → listeners → workers; graceful shutdown on SIGTERM/SIGINT.
import { ConfigError, loadConfig, type Config } from './platform/config/index.js';
import { createLogger, type Logger } from './platform/logger.js';
import { startPlatform } from './app/runtime.js';
import { registerDevSigningKey } from './cli/dev-signing-key.js';
import { announceReady, isClusterWorker, primaryShutdownBoundMs, startPrimary } from './platform/cluster.js';
import { startTracingFromEnvironment } from './platform/tracing/sdk.js';
import { TracingSettingsError } from './platform/tracing/settings.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  // WORKERS > 1: this process is the primary of a cluster (src/platform/cluster.ts), or one of its workers.
  const clustered = config.workers > 1 && !isClusterWorker();
  // Tracing (the OTEL_* variables) starts before any listener or worker, in each process that serves.
  let tracing;
  try {
    tracing = clustered ? null : await startTracingFromEnvironment();
  } catch (err) {
    if (err instanceof TracingSettingsError) {
      process.stderr.write(`Configuration error: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const platform = clustered ? await startPrimary(config, log) : await startPlatform(config, log);
  if (process.env.DEV_SIGNING_KEY === '1' && !isClusterWorker()) await registerDevSigningKey(config, platform.databaseUrl, log);
  announceReady();
  // A cluster primary listens on nothing itself: its workers share the configured ports.
  if (!isClusterWorker()) printAddresses(config, platform as { chatUrl?: string; partnerUrl?: string; workspaceUrl?: string });
  // The primary's bound covers its workers' (SHUTDOWN_TIMEOUT_MS) and the margins after it (src/platform/cluster.ts).
  const boundMs = clustered ? primaryShutdownBoundMs(config.shutdownTimeoutMs) : config.shutdownTimeoutMs;
  // Spans still buffered are exported before the process ends.
  stopOnSignals(log, boundMs, () => platform.stop().then(() => tracing?.shutdown()));
}

/** Where a person finds the console and the reference docs; a cluster primary lists the ports its workers share. */
function printAddresses(config: Config, platform: { chatUrl?: string; partnerUrl?: string; workspaceUrl?: string }): void {
  const configured = (service: 'chat' | 'partner' | 'workspace', port: number) =>
    config.services.includes(service) ? `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}` : undefined;
  const chat = platform.chatUrl ?? configured('chat', config.chatPort);
  const partner = platform.partnerUrl ?? configured('partner', config.partnerPort);
  const workspace = platform.workspaceUrl ?? configured('workspace', config.workspacePort);
  for (const [what, url] of [
    ['Settings console', chat && `${chat}/console/`],
    ['Chat reference', chat && `${chat}/docs/`],
    ['Partner reference', partner && `${partner}/docs/`],
    ['Workspace reference', workspace && `${workspace}/docs/`],
  ] as const) {
    if (url) process.stdout.write(`${what}: ${url}\n`);
  }
}

/**
 * SIGTERM, SIGINT (and, in a worker, a lost primary) run the drain once; a second signal waits for it. Past the
 * bound, what is still running is abandoned and the process exits 1.
 */
function stopOnSignals(log: Logger, boundMs: number, stop: () => Promise<unknown>): void {
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, boundMs }, 'shutting down');
    // The drain (src/app/runtime.ts, stop) has a stated bound: past it, what is still running is abandoned.
    setTimeout(() => {
      log.error({ boundMs }, 'shutdown did not finish within SHUTDOWN_TIMEOUT_MS; exiting with work still in progress');
      process.exit(1);
    }, boundMs).unref();
    stop()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  // A worker whose primary is gone (even by kill -9) stops too, instead of serving on alone.
  if (isClusterWorker()) process.on('disconnect', () => shutdown('primary gone'));
}

main().catch((err: unknown) => {
  process.stderr.write(
    `Failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err ?? 'unknown error; run with LOG_LEVEL=debug')}\n`,
  );
  process.exit(1);
});
