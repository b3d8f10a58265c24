// Resolves the database and Redis the process uses: the configured URLs, or embedded local servers.
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../../config.js';
import type { Logger } from '../logger.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { startLocalRedis } from './local-redis.js';

export interface Infra {
  databaseUrl: string;
  redisUrl: string;
  stop(): Promise<void>;
}

/** Written when the process starts local servers, so local tools (dev-token) find them. */
export const runtimeFile = (dataDir: string) => join(dataDir, 'runtime.json');

export async function resolveInfra(config: Config, log: Logger): Promise<Infra> {
  const stops: Array<() => Promise<void>> = [];
  let databaseUrl = config.databaseUrl;
  let redisUrl = config.redisUrl;
  if (!databaseUrl) {
    const db = await startEmbeddedPostgres(config.dataDir, (line) => log.debug({ postgres: line }));
    databaseUrl = db.url;
    stops.push(db.stop);
    log.info({ dataDir: config.dataDir }, 'embedded PostgreSQL started');
  }
  if (!redisUrl) {
    const redis = await startLocalRedis(config.dataDir);
    redisUrl = redis.url;
    stops.push(redis.stop);
    log.info({ redisUrl }, 'local redis-server started');
  }
  if (stops.length > 0) {
    await mkdir(config.dataDir, { recursive: true });
    await writeFile(runtimeFile(config.dataDir), JSON.stringify({ databaseUrl, redisUrl, pid: process.pid }, null, 2));
  }
  return {
    databaseUrl,
    redisUrl,
    stop: async () => {
      for (const stop of stops.reverse()) await stop();
    },
  };
}
