// Verify keys per (module, customer), cached on each node. Registering or refreshing keys publishes an
// invalidation on Redis so that every node drops its copy at once; the TTL bounds staleness if a message is lost.
// Keys too weak or unreadable are left out (reported at start by reportUnusableKeys).
import type { CryptoKey } from 'jose';
import type { Orm } from '../../platform/db/orm.js';
import { InvalidationChannel } from '../../platform/invalidation.js';
import type { Redis } from '../../platform/redis.js';
import type { Clock } from '../../platform/clock.js';
import { importVerifyKey } from './key-strength.js';

export const verifyKeyInvalidationChannel = 'chat:verify-keys:invalidate';

export interface VerifyKey {
  kid: string;
  algorithm: string;
  key: CryptoKey;
}

interface Entry {
  keys: VerifyKey[];
  loadedAt: number;
}

const cacheKey = (moduleCode: string, customerAccountId: string) => `${moduleCode}\n${customerAccountId}`;

export class VerifyKeyCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped on every invalidation, so a load that raced with one is not cached. */
  private generation = 0;
  private readonly channel: InvalidationChannel;

  constructor(
    private readonly orm: Orm,
    publisher: Redis,
    private readonly ttlMs: number,
    private readonly clock: Clock,
  ) {
    this.channel = new InvalidationChannel(publisher, verifyKeyInvalidationChannel);
  }

  /** Subscribes to invalidations from other nodes; returns the unsubscribe. */
  listen(subscriber: Redis): Promise<() => Promise<void>> {
    return this.channel.listen(subscriber, { drop: (key) => this.drop(key), dropAll: () => this.dropAll() });
  }

  async keysFor(moduleCode: string, customerAccountId: string): Promise<VerifyKey[]> {
    const key = cacheKey(moduleCode, customerAccountId);
    const now = this.clock.now().getTime();
    const hit = this.entries.get(key);
    if (hit && now - hit.loadedAt < this.ttlMs && this.channel.isLive) return hit.keys;
    const generation = this.generation;
    const rows = await this.orm.em
      .fork()
      .getConnection()
      .execute<Array<{ kid: string; algorithm: string; public_key_pem: string }>>(
        'select kid, algorithm, public_key_pem from customer_keys where module_code = ? and customer_account_id = ?',
        [moduleCode, customerAccountId],
      );
    const keys: VerifyKey[] = [];
    for (const r of rows) {
      const imported = await importVerifyKey(r.public_key_pem, r.algorithm);
      if ('key' in imported) keys.push({ kid: r.kid, algorithm: r.algorithm, key: imported.key });
    }
    if (generation === this.generation && this.channel.isLive) this.entries.set(key, { keys, loadedAt: now });
    return keys;
  }

  /**
   * Whether `keys` (an array keysFor returned) is still this node's live cached set for the customer: loaded,
   * within its TTL, not dropped by an invalidation since, and invalidations being received.
   */
  isCurrent(moduleCode: string, customerAccountId: string, keys: VerifyKey[]): boolean {
    const hit = this.entries.get(cacheKey(moduleCode, customerAccountId));
    return hit !== undefined && hit.keys === keys && this.clock.now().getTime() - hit.loadedAt < this.ttlMs && this.channel.isLive;
  }

  /** Drops the cached keys of one customer on this node and every other node. */
  async invalidate(moduleCode: string, customerAccountId: string): Promise<void> {
    const key = cacheKey(moduleCode, customerAccountId);
    this.drop(key);
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
