// The rows the key gates of the partner and workspace listeners look up (a key's hash joined with its workspace's
// plan), cached on each node so that a request with a warm cache waits only for its rate counter. Key revocations and
// plan changes are rare: each one empties the cache on every node through Redis after it commits and before it is
// answered, so the very next request on any node reads the database again. Expiry stays exact (the gates compare
// the cached expires_at with the clock on every request); the TTL bounds staleness should an invalidation be lost, and
// while the subscription is down the cache is bypassed.
import type { Clock } from './clock.js';
import { NodeCache } from './node-cache.js';
import type { Redis } from './redis.js';

export const gateKeyInvalidationChannel = 'gate:keys:invalidate';

export class GateKeyCache {
  // A flood of made-up keys cannot grow it: text that is not a key finds no row, and nothing is cached for it.
  private readonly cache: NodeCache<unknown>;

  constructor(publisher: Redis, ttlMs: number, clock: Clock) {
    this.cache = new NodeCache(publisher, gateKeyInvalidationChannel, ttlMs, clock, { maxEntries: 50_000, dropAllOnMessage: true });
  }

  /** Subscribes to invalidations from other nodes; returns the unsubscribe. */
  listen(subscriber: Redis): Promise<() => Promise<void>> {
    return this.cache.listen(subscriber);
  }

  /** The row cached under key (a surface prefix and the key's hash), else what load answers. */
  async get<Row>(key: string, load: () => Promise<Row | undefined>): Promise<Row | undefined> {
    return (await this.cache.get(key, load)) as Row | undefined;
  }

  /**
   * Empties the cache on this node, then on every other node; resolves once they confirmed. Call it after the change
   * committed: a node that reloads in between would otherwise cache the old row.
   */
  invalidate(): Promise<void> {
    return this.cache.invalidate('*');
  }
}
