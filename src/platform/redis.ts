import { Cluster, Redis as Server, type RedisOptions } from 'ioredis';
import { dependencyTimeouts } from './dependency-timeouts.js';
import { instrumentRedis } from './metrics/redis.js';
import { isClusterUrl, parseClusterUrl } from './redis-target.js';

/** A connection to one Redis server or to a Redis Cluster: the commands the platform uses exist on both. */
export type Redis = Server | Cluster;

export interface ConnectOptions {
  autoPipelining?: boolean;
  failFast?: boolean;
  blocking?: boolean;
}

/**
 * The one way the platform connects to Redis (commands, publishing, subscribers, BullMQ's connections): url is a
 * server's URL or a cluster's (redis+cluster://host:port,host:port, see redis-target.ts).
 * blocking: a queue worker's or a subscriber's connection, whose commands may wait by design. BullMQ needs
 * maxRetriesPerRequest null on blocking clients.
 * autoPipelining (never on blocking or subscriber connections) sends the commands issued in one event-loop tick in
 * one write: under load, the rate counters of many concurrent requests cost one system call instead of one each.
 */
export function connectRedis(url: string, name: string, options: ConnectOptions = {}): Redis {
  const common: RedisOptions = {
    connectionName: name,
    // A Redis that is frozen keeps the connection open and answers nothing: a command fails (503 on a request) after
    // REDIS_COMMAND_TIMEOUT_MS instead of waiting for it. Not on blocking connections: a worker's blocking pops and
    // a subscriber's (re)subscriptions may wait longer by design, and no request waits on them.
    ...(options.blocking ? {} : { commandTimeout: dependencyTimeouts().redisCommandTimeoutMs }),
    // failFast: a command issued while Redis is unreachable fails at once (the request answers 503) instead of
    // waiting for Redis to come back; commands issued before the first connection are still queued.
    maxRetriesPerRequest: options.failFast ? 1 : null,
  };
  const redis: Redis = isClusterUrl(url)
    ? connectCluster(url, common, options)
    : new Server(url, { ...common, lazyConnect: false, enableAutoPipelining: options.autoPipelining ?? false });
  // While Redis is away every reconnection attempt emits 'error'; without a listener ioredis reports each as an
  // unhandled error event. Commands still fail (503 on requests) and /readyz tells the state.
  redis.on('error', () => undefined);
  // Blocking connections wait by design: their commands' times would say nothing about Redis.
  if (!options.blocking) instrumentRedis(redis, name);
  if (options.failFast) redis.once('ready', () => (redis.options.enableOfflineQueue = false));
  return redis;
}

function connectCluster(url: string, common: RedisOptions, options: ConnectOptions): Cluster {
  const target = parseClusterUrl(url);
  return new Cluster(target.seeds, {
    redisOptions: {
      ...common,
      ...(target.username !== undefined ? { username: target.username } : {}),
      ...(target.password !== undefined ? { password: target.password } : {}),
      ...(target.tls ? { tls: {} } : {}),
    },
    // Reads go to the masters: the platform reads what it has just written (counters, locks, queue state).
    scaleReads: 'master',
    enableAutoPipelining: options.autoPipelining ?? false,
    // A managed cluster behind TLS announces its nodes by IP while the certificates name the host: keep the name the
    // seed was given by, as ioredis advises for such services.
    ...(target.tls
      ? { dnsLookup: (address: string, callback: (err: Error | null, address: string) => void) => callback(null, address) }
      : {}),
  });
}

/** Whether the connection is to a Redis Cluster, whose multi-key operations need keys of one slot. */
export function isCluster(redis: Redis): redis is Cluster {
  return redis instanceof Cluster;
}

/**
 * A key part that decides the key's cluster slot: on a cluster it becomes a hash tag ({part}), so that the keys of
 * one script call that share it land in one slot; on one server the key keeps its plain name.
 */
export function slotTag(redis: Redis, part: string): string {
  return isCluster(redis) ? `{${part}}` : part;
}
