import { Redis } from 'ioredis';

/** A Redis connection for commands and publishing. BullMQ needs maxRetriesPerRequest null on blocking clients. */
export function connectRedis(url: string, name: string): Redis {
  return new Redis(url, { connectionName: name, maxRetriesPerRequest: null, lazyConnect: false });
}

export type { Redis };
