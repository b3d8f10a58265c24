// Resolves the database and Redis the process uses: the configured URLs, or embedded local servers.
import { writeFile, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '../config/index.js';
import type { Logger } from '../logger.js';
import { postmasterPidFile, startEmbeddedPostgres } from './embedded-postgres.js';
import { redisPidFile, startLocalRedis } from './local-redis.js';
import { startProcessGuard } from './process-guard.js';
import { recordedRedisUrl, stopStaleServer } from './stale.js';

/** What redis-server shows as its command line: `redis-server 127.0.0.1:<port>`. */
const redisMarker = (url: string | undefined) => (url ? `redis-server ${new URL(url).host}` : 'redis-server');

export interface Infra {
  databaseUrl: string;
  redisUrl: string;
  stop(): Promise<void>;
}

/** Written when the process starts local servers, so local tools (dev-token) find them. */
export const runtimeFile = (dataDir: string) => join(dataDir, 'runtime.json');

export async function resolveInfra(config: Config, log: Logger): Promise<Infra> {
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop();
  };
  let databaseUrl = config.databaseUrl;
  let redisUrl = config.redisUrl;
  if (databaseUrl && redisUrl) return { databaseUrl, redisUrl, stop: async () => undefined };
  // Servers this process starts end with it, even when it is killed (src/platform/infra/process-guard.ts).
  const guard = startProcessGuard();
  stops.push(async () => guard.close());
  try {
    const runtime = runtimeFile(config.dataDir);
    // PostgreSQL's command line names its data folder (-D); redis-server's shows its address.
    const postgresDir = resolve(join(config.dataDir, 'postgres'));
    if (!databaseUrl) {
      await stopStaleServer(
        {
          label: 'PostgreSQL',
          marker: postgresDir,
          pidFile: postmasterPidFile(config.dataDir),
          soft: 'SIGINT',
          hard: 'SIGQUIT',
          removeStalePidFile: true,
        },
        runtime,
        config.dataDir,
        log,
      );
      const db = await startEmbeddedPostgres(config.dataDir, (line) => log.debug({ postgres: line }));
      if (db.pid !== undefined) guard.watch(db.pid, postgresDir, 'SIGINT', 'SIGQUIT');
      databaseUrl = db.url;
      stops.push(async () => {
        await db.stop();
        if (db.pid !== undefined) guard.forget(db.pid);
      });
      log.info({ dataDir: config.dataDir, serverPid: db.pid }, 'embedded PostgreSQL started');
    }
    if (!redisUrl) {
      await stopStaleServer(
        {
          label: 'redis-server',
          marker: redisMarker(recordedRedisUrl(runtime)),
          pidFile: redisPidFile(config.dataDir),
          soft: 'SIGTERM',
          hard: 'SIGKILL',
          removeStalePidFile: false,
        },
        runtime,
        config.dataDir,
        log,
      );
      const redis = await startLocalRedis(config.dataDir);
      if (redis.pid !== undefined) guard.watch(redis.pid, redisMarker(redis.url), 'SIGTERM', 'SIGKILL');
      redisUrl = redis.url;
      stops.push(async () => {
        await redis.stop();
        if (redis.pid !== undefined) guard.forget(redis.pid);
      });
      log.info({ redisUrl, serverPid: redis.pid }, 'local redis-server started');
    }
    await mkdir(config.dataDir, { recursive: true });
    await writeFile(runtime, JSON.stringify({ databaseUrl, redisUrl, pid: process.pid, watchdogPid: guard.pid }, null, 2));
  } catch (err) {
    // What started before the failure stops again, so a failed start leaves nothing running.
    await stopAll().catch(() => undefined);
    throw err;
  }
  return {
    databaseUrl: databaseUrl!,
    redisUrl: redisUrl!,
    stop: stopAll,
  };
}
