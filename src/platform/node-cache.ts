// A per-node cache of rows read from PostgreSQL, kept honest across nodes through an acknowledged Redis channel
// (InvalidationChannel): a change drops the entry on every node before it is answered, the TTL bounds staleness should
// a message be lost, and while the subscription is down the cache is bypassed.
import type { Clock } from './clock.js';
import { InvalidationChannel } from './invalidation.js';
import type { Redis } from './redis.js';

export interface NodeCacheOptions {
  /** Entries beyond this are evicted oldest first, so memory stays bounded. */
  maxEntries: number;
  /** Any message empties the whole cache instead of one entry (for rows whose changes are rare and far-reaching). */
  dropAllOnMessage?: boolean;
}

interface Entry<V> {
  value: V;
  loadedAt: number;
}

export class NodeCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  /** Bumped on every invalidation, so a load that raced with one is not cached. */
  private generation = 0;
  private readonly channel: InvalidationChannel;

  constructor(
    publisher: Redis,
    channelName: string,
    private readonly ttlMs: number,
    private readonly clock: Clock,
    private readonly options: NodeCacheOptions,
  ) {
    this.channel = new InvalidationChannel(publisher, channelName);
  }

  /** Subscribes to invalidations from other nodes; returns the unsubscribe. */
  listen(subscriber: Redis): Promise<() => Promise<void>> {
    return this.channel.listen(subscriber, {
      drop: (key) => (this.options.dropAllOnMessage ? this.dropAll() : this.drop(key)),
      dropAll: () => this.dropAll(),
    });
  }

  /** The cached value, else what load answers; undefined (nothing found) is not cached. */
  async get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const now = this.clock.now().getTime();
    const hit = this.entries.get(key);
    if (hit && now - hit.loadedAt < this.ttlMs && this.channel.isLive) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && this.ttlMs > 0 && generation === this.generation && this.channel.isLive) {
      this.entries.delete(key);
      this.entries.set(key, { value, loadedAt: now });
      if (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    }
    return value;
  }

  /** Whether value (an answer of get) is still this node's live cached value of key: not dropped or expired since. */
  isCurrent(key: string, value: V): boolean {
    const hit = this.entries.get(key);
    return hit !== undefined && hit.value === value && this.clock.now().getTime() - hit.loadedAt < this.ttlMs && this.channel.isLive;
  }

  /** Drops key on this node, then on every other node; resolves once they confirmed (or after a bounded wait). */
  async invalidate(key: string): Promise<void> {
    if (this.options.dropAllOnMessage) this.dropAll();
    else this.drop(key);
    await this.channel.publish(key);
  }

  private drop(key: string): void {
    this.generation += 1;
    this.entries.delete(key);
  }

  private dropAll(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
