// Where the command-line tools find the platform started by `make run`: DATABASE_URL / REDIS_URL (or
// REDIS_CLUSTER_NODES), else the
// runtime file the platform writes into DATA_DIR for its embedded servers.
import { existsSync, readFileSync } from 'node:fs';
import { runtimeFile } from '../platform/infra/index.js';
import { clusterUrlFromNodes } from '../platform/redis-target.js';

export interface PlatformUrls {
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
}

export function platformUrls(): PlatformUrls {
  const dataDir = process.env.DATA_DIR ?? '.data';
  const file = runtimeFile(dataDir);
  const runtime = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { databaseUrl?: string; redisUrl?: string }) : {};
  const nodes = process.env.REDIS_CLUSTER_NODES;
  const redisUrl = nodes ? clusterUrlFromNodes(nodes, process.env.REDIS_URL || undefined) : process.env.REDIS_URL || runtime.redisUrl;
  return { dataDir, databaseUrl: process.env.DATABASE_URL || runtime.databaseUrl, redisUrl };
}
