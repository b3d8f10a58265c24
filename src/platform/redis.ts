import { Redis } from 'ioredis';

/**
 * A Redis connection for commands and publishing. BullMQ needs maxRetriesPerRequest null on blocking clients.
 * autoPipelining (never on blocking or subscriber connections) sends the commands issued in one event-loop tick in
 * one write: under load, the rate counters of many concurrent requests cost one system call instead of one each.
 */
export function connectRedis(url: string, name: string, options: { autoPipelining?: boolean } = {}): Redis {
  return new Redis(url, { connectionName: name, maxRetriesPerRequest: null, lazyConnect: false, enableAutoPipelining: options.autoPipelining ?? false });
}

export type { Redis };
