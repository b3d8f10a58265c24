// What runs here and where: services, ports, PostgreSQL and its replicas, Redis, the data directory.
import { clusterUrlFromNodes, isClusterUrl, parseClusterUrl } from '../redis-target.js';
import { ConfigError, int, url, urlList, type Env } from './env.js';
import type { ServiceName } from './types.js';

/**
 * REDIS_URL: one server (redis, rediss) or a cluster (redis+cluster://host:port,host:port); REDIS_CLUSTER_NODES
 * (host:port,host:port) names a cluster's seeds, with the scheme and credentials of REDIS_URL when that is set too.
 */
function redisTarget(env: Env): string | undefined {
  const raw = env.REDIS_URL;
  const nodes = env.REDIS_CLUSTER_NODES;
  try {
    if (raw && isClusterUrl(raw)) parseClusterUrl(raw);
    if (nodes !== undefined && nodes.trim() !== '')
      return clusterUrlFromNodes(nodes, raw && isClusterUrl(raw) ? raw : url(env, 'REDIS_URL', ['redis', 'rediss']));
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`${nodes ? 'REDIS_CLUSTER_NODES' : 'REDIS_URL'}: ${(err as Error).message}`);
  }
  return raw && isClusterUrl(raw) ? raw : url(env, 'REDIS_URL', ['redis', 'rediss']);
}

const allServices: ServiceName[] = ['chat', 'partner', 'workspace', 'workers'];

function services(env: Env): ServiceName[] {
  const raw = env.SERVICES;
  if (raw === undefined || raw.trim() === '') return allServices;
  const names = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of names) {
    if (!allServices.includes(name as ServiceName)) {
      throw new ConfigError(`SERVICES lists unknown service "${name}"; known: ${allServices.join(', ')}`);
    }
  }
  return names as ServiceName[];
}

/** What runs here and where: services, ports, PostgreSQL (and its replicas), Redis, the data directory. */
export function addresses(env: Env) {
  return {
    services: services(env),
    host: env.HOST ?? '127.0.0.1',
    chatPort: int(env, 'CHAT_PORT', 8080, 0, 65535),
    partnerPort: int(env, 'PARTNER_PORT', 8081, 0, 65535),
    workspacePort: int(env, 'WORKSPACE_PORT', 8082, 0, 65535),
    metricsPort: env.METRICS_PORT === undefined || env.METRICS_PORT === '' ? undefined : int(env, 'METRICS_PORT', 0, 0, 65535),
    metricsHost: env.METRICS_HOST || '127.0.0.1',
    databaseUrl: url(env, 'DATABASE_URL', ['postgres', 'postgresql']),
    redisUrl: redisTarget(env),
    readReplicas: {
      urls: urlList(env, 'DATABASE_READ_URLS', ['postgres', 'postgresql']),
      pollMs: int(env, 'REPLICA_POLL_MS', 200, 20, 10_000),
      maxLagMs: int(env, 'REPLICA_MAX_LAG_MS', 30_000, 100, 3_600_000),
      maxLagBytes: int(env, 'REPLICA_MAX_LAG_BYTES', 16 * 1024 * 1024, 0, Number.MAX_SAFE_INTEGER),
    },
    dataDir: env.DATA_DIR ?? '.data',
  };
}
