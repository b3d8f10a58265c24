// Verify keys per (module, customer), cached on each node. Registering or refreshing keys publishes an
// invalidation on Redis so that every node drops its copy at once; the TTL bounds staleness if a message is lost.
// Keys too weak or unreadable are left out (reported at start by reportUnusableKeys).
import type { CryptoKey } from 'jose';
import type { SqlPool } from '../../platform/db/sql.js';
import { NodeCache } from '../../platform/node-cache.js';
import type { Redis } from '../../platform/redis.js';
import type { Clock } from '../../platform/clock.js';
import { importVerifyKey } from './key-strength.js';
import { customerVerifyKeys } from './queries.js';

export const verifyKeyInvalidationChannel = 'chat:verify-keys:invalidate';

export interface VerifyKey {
  kid: string;
  algorithm: string;
  key: CryptoKey;
}

const cacheKey = (moduleCode: string, customerAccountId: string) => `${moduleCode}\n${customerAccountId}`;

/** Customers whose keys are cached on a node at most; the oldest are forgotten first. */
const maxEntries = 100_000;

export class VerifyKeyCache {
  private readonly cache: NodeCache<VerifyKey[]>;

  constructor(
    private readonly sql: SqlPool,
    publisher: Redis,
    ttlMs: number,
    clock: Clock,
  ) {
    this.cache = new NodeCache(publisher, verifyKeyInvalidationChannel, ttlMs, clock, { maxEntries });
  }

  /** Subscribes to invalidations from other nodes; returns the unsubscribe. */
  listen(subscriber: Redis): Promise<() => Promise<void>> {
    return this.cache.listen(subscriber);
  }

  async keysFor(moduleCode: string, customerAccountId: string): Promise<VerifyKey[]> {
    // A customer without usable keys is cached too (an empty set): its tokens are refused without a lookup each.
    return (await this.cache.get(cacheKey(moduleCode, customerAccountId), () => this.load(moduleCode, customerAccountId))) ?? [];
  }

  /**
   * Whether `keys` (an array keysFor returned) is still this node's live cached set for the customer: loaded,
   * within its TTL, not dropped by an invalidation since, and invalidations being received.
   */
  isCurrent(moduleCode: string, customerAccountId: string, keys: VerifyKey[]): boolean {
    return this.cache.isCurrent(cacheKey(moduleCode, customerAccountId), keys);
  }

  /** Drops the cached keys of one customer on this node and every other node. */
  invalidate(moduleCode: string, customerAccountId: string): Promise<void> {
    return this.cache.invalidate(cacheKey(moduleCode, customerAccountId));
  }

  private async load(moduleCode: string, customerAccountId: string): Promise<VerifyKey[]> {
    const rows = await customerVerifyKeys(this.sql, moduleCode, customerAccountId);
    const keys: VerifyKey[] = [];
    for (const r of rows) {
      const imported = await importVerifyKey(r.public_key_pem, r.algorithm);
      if ('key' in imported) keys.push({ kid: r.kid, algorithm: r.algorithm, key: imported.key });
    }
    return keys;
  }
}
