// Builds the read router of DATABASE_READ_URLS; none listed: no router, and every read stays on the primary.
import type { Redis } from '../redis.js';
import type { ReadReplicaConfig } from '../config/index.js';
import type { Logger } from '../logger.js';
import { ReadRouter } from './read-router.js';
import { ReplicaSet } from './replica-set.js';
import type { SqlPool } from './sql.js';
import { WritePositions } from './write-positions.js';

export async function openReadRouter(
  primary: SqlPool,
  redis: Redis,
  config: ReadReplicaConfig,
  log: Logger,
): Promise<ReadRouter | undefined> {
  if (config.urls.length === 0) return undefined;
  const replicas = new ReplicaSet(
    primary,
    config.urls,
    { pollMs: config.pollMs, maxLagMs: config.maxLagMs, maxLagBytes: config.maxLagBytes, poolMax: 20 },
    log,
  );
  await replicas.start();
  // A replica still in rotation has replayed everything older than maxLagMs, as of a poll at most pollMs old: a write
  // position older than that needs no remembering.
  const positions = new WritePositions(redis, config.maxLagMs + 2 * config.pollMs);
  log.info(
    { replicas: replicas.replicas.map((r) => ({ replica: r.name, inRotation: r.inRotation, state: r.reason })) },
    'read replicas configured',
  );
  return new ReadRouter(primary, replicas, positions);
}
