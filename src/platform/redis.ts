import { Redis } from 'ioredis';

/**
 * A Redis connection for commands and publishing. BullMQ needs maxRetriesPerRequest null on blocking clients.
 * autoPipelining (never on blocking or subscriber connections) sends the commands issued in one event-loop tick in
 * one write: under load, the rate counters of many concurrent requests cost one system call instead of one each.
 */
export function connectRedis(url: string, name: string, options: { autoPipelining?: boolean; failFast?: boolean } = {}): Redis {
  const redis = new Redis(url, {
    connectionName: name,
    // failFast: a command issued while Redis is unreachable fails at once (the request answers 503) instead of
    // waiting for Redis to come back; commands issued before the first connection are still queued.
    maxRetriesPerRequest: options.failFast ? 1 : null,
    lazyConnect: false,
    enableAutoPipelining: options.autoPipelining ?? false,
  });
  if (options.failFast) redis.once('ready', () => (redis.options.enableOfflineQueue = false));
  return redis;
}

export type { Redis };
