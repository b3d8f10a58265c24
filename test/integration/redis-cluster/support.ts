// The Redis Cluster suite's infrastructure: a local three-master cluster of its own (redis-server processes joined
// by redis-cli) and a database of its own on the run's PostgreSQL. Platforms started with redisUrl set to the
// cluster's URL connect through ioredis' Cluster client, exactly as REDIS_CLUSTER_NODES makes them in production.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openOrm } from '../../../src/platform/db/orm.js';
import { startLocalRedisCluster } from '../../../src/platform/infra/local-redis-cluster.js';
import { connectRedis, type Redis } from '../../../src/platform/redis.js';
import { isolatedInfra } from '../../support/platform.js';

export interface ClusterInfra {
  databaseUrl: string;
  /** redis+cluster://127.0.0.1:<port>,... */
  redisUrl: string;
  /** A connection to the cluster for looking at its keys. */
  redis: Redis;
  /** Every key of the cluster matching pattern (SCAN on each master: a cluster's keys are spread over them). */
  keys(pattern: string): Promise<string[]>;
  /** The address of the master serving each slot. */
  slotOwners(slots: number[]): Promise<string[]>;
  stop(): Promise<void>;
}

/** The cluster and a migrated database, so that the suite's platforms can start side by side. */
export async function clusterInfra(): Promise<ClusterInfra> {
  const dir = await mkdtemp(join(tmpdir(), 'redis-cluster-'));
  const [cluster, infra] = await Promise.all([startLocalRedisCluster(dir), isolatedInfra()]);
  const orm = await openOrm({ databaseUrl: infra.databaseUrl });
  try {
    await migrate(orm);
  } finally {
    await orm.close();
  }
  const redis = connectRedis(cluster.url, 'cluster-test');
  return {
    databaseUrl: infra.databaseUrl,
    redisUrl: cluster.url,
    redis,
    async keys(pattern) {
      if (!('nodes' in redis)) throw new Error('not a cluster connection');
      const found: string[] = [];
      for (const node of redis.nodes('master')) {
        let cursor = '0';
        do {
          const [next, batch] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
          found.push(...batch);
          cursor = next;
        } while (cursor !== '0');
      }
      return found.sort();
    },
    async slotOwners(slots) {
      const ranges = (await redis.call('CLUSTER', 'SLOTS')) as Array<[number, number, [string, number]]>;
      return slots.map((slot) => {
        const range = ranges.find(([from, to]) => slot >= from && slot <= to);
        if (!range) throw new Error(`no master serves slot ${slot}`);
        return `${range[2][0]}:${range[2][1]}`;
      });
    },
    async stop() {
      redis.disconnect();
      await cluster.stop();
      await infra.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
