// The rows the key gates of the partner and workspace listeners look up (a key's hash joined with its workspace's
// plan), cached on each node so that a request with a warm cache waits only for its rate counter. Key revocations and
// plan changes are rare: each one empties the cache on every node through Redis after it commits and before it is
// answered, so the very next request on any node reads the database again. Expiry stays exact (the gates compare
// the cached expires_at with the clock on every request); the TTL bounds staleness should an invalidation be lost, and
// while the subscription is down the cache is bypassed.
import type { Clock } from './clock.js';
import { InvalidationChannel } from './invalidation.js';
import type { Redis } from './redis.js';

export const gateKeyInvalidationChannel = 'gate:keys:invalidate';

interface Entry {
  row: unknown;
  loadedAt: number;
}

/** Entries beyond this are evicted oldest first: a flood of made-up keys (never cached) cannot grow it anyway. */
const maxEntries = 50_000;

export class GateKeyCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped on every invalidation, so a load that raced with one is not cached. */
  private generation = 0;
  private readonly channel: InvalidationChannel;

  constructor(
    publisher: Redis,
    private readonly ttlMs: number,
    private readonly clock: Clock,
  ) {
    this.channel = new InvalidationChannel(publisher, gateKeyInvalidationChannel);
  }

  /** Subscribes to invalidations from other nodes; returns the unsubscribe. */
  listen(subscriber: Redis): Promise<() => Promise<void>> {
    return this.channel.listen(subscriber, { drop: () => this.dropAll(), dropAll: () => this.dropAll() });
  }

  /**
   * The row cached under key (a surface prefix and the key's hash), else what load answers. A missing row is not
   * cached: the text may not be a key now, and made-up keys must not fill the cache.
   */
  async get<Row>(key: string, load: () => Promise<Row | undefined>): Promise<Row | undefined> {
    const now = this.clock.now().getTime();
    const hit = this.entries.get(key);
    if (hit && now - hit.loadedAt < this.ttlMs && this.channel.isLive) return hit.row as Row;
    const generation = this.generation;
    const row = await load();
    if (row !== undefined && this.ttlMs > 0 && generation === this.generation && this.channel.isLive) {
      this.entries.delete(key);
      this.entries.set(key, { row, loadedAt: now });
      if (this.entries.size > maxEntries) this.entries.delete(this.entries.keys().next().value!);
    }
    return row;
  }

  /**
   * Empties the cache on this node, then on every other node; resolves once they confirmed. Call it after the change
   * committed: a node that reloads in between would otherwise cache the old row.
   */
  async invalidate(): Promise<void> {
    this.dropAll();
    await this.channel.publish('*');
  }

  private dropAll(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
