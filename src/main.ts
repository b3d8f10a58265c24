// Process entry: configuration → infrastructure → listeners → workers; graceful shutdown on SIGTERM/SIGINT.
import { ConfigError, loadConfig } from './config.js';
import { createLogger } from './platform/logger.js';
import { startPlatform } from './platform/runtime.js';
import { registerDevSigningKey } from './cli/dev-signing-key.js';

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
  const platform = await startPlatform(config, log);
  if (process.env.DEV_SIGNING_KEY === '1') await registerDevSigningKey(config, platform.databaseUrl, log);
  for (const [what, url] of [
    ['Settings console', platform.consoleUrl],
    ['Chat reference', platform.chatUrl && `${platform.chatUrl}/docs/`],
    ['Partner reference', platform.partnerUrl && `${platform.partnerUrl}/docs/`],
    ['Workspace reference', platform.workspaceUrl && `${platform.workspaceUrl}/docs/`],
  ] as const) {
    if (url) process.stdout.write(`${what}: ${url}\n`);
  }
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    platform
      .stop()
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err ?? 'unknown error; run with LOG_LEVEL=debug')}\n`);
  process.exit(1);
});
