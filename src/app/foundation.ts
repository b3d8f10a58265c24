// What every part of a node stands on: infrastructure (external or embedded), the migrated database and its pools,
// Redis connections and the queues. Started first, stopped last.
import type { Config } from '../platform/config/index.js';
import { resolveCursorSecret } from '../platform/cursor-secret.js';
import { installCursorSecret } from '../platform/http/cursor.js';
import { migrate, openOrm, type Orm } from '../platform/db/orm.js';
import { createSqlPool, lockSession, onEventsCommitted, unlockSession, waitWithoutTimeouts, type SqlPool } from '../platform/db/sql.js';
import { openReadRouter } from '../platform/db/open-read-router.js';
import type { ReadRouter } from '../platform/db/read-router.js';
import { resolveInfra, type Infra } from '../platform/infra/index.js';
import type { Logger } from '../platform/logger.js';
import { createQueues, type Queues } from '../platform/queues.js';
import { connectRedis, type Redis } from '../platform/redis.js';
import { mediaStore, type MediaStore } from '../core/media/store.js';
import { entities } from './entities.js';
import { addModule } from './queries.js';
import type { Shutdown } from './shutdown.js';

export interface Foundation {
  infra: Infra;
  orm: Orm;
  sql: SqlPool;
  /** Commands (auto-pipelined) and a connection for subscriptions and blocking reads. */
  redis: Redis;
  subscriber: Redis;
  /** The read router of DATABASE_READ_URLS; absent without replicas. */
  reads?: ReadRouter;
  queues: Queues;
  media: MediaStore;
}

export async function startFoundation(config: Config, log: Logger, shutdown: Shutdown): Promise<Foundation> {
  const infra = await resolveInfra(config, log);
  shutdown.add(infra.stop);

  // One pool to the primary: the statements and the ORM both run on it.
  const sql = createSqlPool(infra.databaseUrl);
  shutdown.add(() => sql.end());
  const orm = await openOrm({ databaseUrl: infra.databaseUrl, entities, pool: sql });
  shutdown.add(() => orm.close());
  const applied = await migrateExclusively(sql, orm);
  if (applied.length > 0) log.info({ applied }, 'migrations applied');
  await addModule(sql, config.platformModule, 'Platform administration');
  installCursorSecret(await resolveCursorSecret(sql, config.cursorSecret));

  const redis = connectRedis(infra.redisUrl, 'commands', { autoPipelining: true, failFast: true });
  const subscriber = connectRedis(infra.redisUrl, 'subscriber', { blocking: true });
  // Fail-fast: with Redis gone the ping fails at once; a frozen Redis fails the probe's bound.
  shutdown.dependsOn('redis', async () => (await redis.ping()) === 'PONG');
  shutdown.add(async () => {
    redis.disconnect();
    subscriber.disconnect();
  });
  const reads = await openReadRouter(sql, redis, config.readReplicas, log);
  if (reads) shutdown.add(() => reads.replicas.close());
  const queues = createQueues(infra.redisUrl, log, config.relayIntervalMs);
  shutdown.add(() => queues.close());
  // Every commit that wrote events asks the relay to publish them (sql.ts).
  onEventsCommitted(sql, () => queues.requestOutboxDrain());
  return { infra, orm, sql, redis, subscriber, ...(reads ? { reads } : {}), queues, media: mediaStore(config.media, config.dataDir) };
}

/** Nodes starting together take turns: the first applies pending migrations, the others then find none. */
async function migrateExclusively(sql: SqlPool, orm: Orm): Promise<string[]> {
  const lock = await sql.connect();
  try {
    // Waiting for another node's migrations may take longer than any request may: no time-outs on this connection
    // (its session settings die with it, it is not pooled again).
    await waitWithoutTimeouts(lock);
    await lockSession(lock, 'platform:migrations');
    return await migrate(orm);
  } finally {
    await unlockSession(lock, 'platform:migrations').catch(() => undefined);
    lock.release(true);
  }
}
