import { Redis } from 'ioredis';
import { dependencyTimeouts } from './dependency-timeouts.js';
import { instrumentRedis } from './metrics/redis.js';

/**
 * A Redis connection for commands and publishing. blocking: a queue worker's or a subscriber's connection, whose
 * commands may wait by design. BullMQ needs maxRetriesPerRequest null on blocking clients.
 * autoPipelining (never on blocking or subscriber connections) sends the commands issued in one event-loop tick in
 * one write: under load, the rate counters of many concurrent requests cost one system call instead of one each.
 */
export function connectRedis(url: string, name: string, options: { autoPipelining?: boolean; failFast?: boolean; blocking?: boolean } = {}): Redis {
  const redis = new Redis(url, {
    connectionName: name,
    // A Redis that is frozen keeps the connection open and answers nothing: a command fails (503 on a request) after
    // REDIS_COMMAND_TIMEOUT_MS instead of waiting for it. Not on blocking connections: a worker's blocking pops and
    // a subscriber's (re)subscriptions may wait longer by design, and no request waits on them.
    ...(options.blocking ? {} : { commandTimeout: dependencyTimeouts().redisCommandTimeoutMs }),
    // failFast: a command issued while Redis is unreachable fails at once (the request answers 503) instead of
    // waiting for Redis to come back; commands issued before the first connection are still queued.
    maxRetriesPerRequest: options.failFast ? 1 : null,
    lazyConnect: false,
    enableAutoPipelining: options.autoPipelining ?? false,
  });
  // While Redis is away every reconnection attempt emits 'error'; without a listener ioredis reports each as an
  // unhandled error event. Commands still fail (503 on requests) and /readyz tells the state.
  redis.on('error', () => undefined);
  // Blocking connections wait by design: their commands' times would say nothing about Redis.
  if (!options.blocking) instrumentRedis(redis, name);
  if (options.failFast) redis.once('ready', () => (redis.options.enableOfflineQueue = false));
  return redis;
}

export type { Redis };
