// Verify keys per (module, customer), cached on each node. Registering or refreshing keys publishes an
// invalidation on Redis so that every node drops its copy at once; the TTL bounds staleness if a message is lost.
import { importSPKI, type CryptoKey } from 'jose';
import type { Orm } from '../../platform/db/orm.js';
import type { Redis } from '../../platform/redis.js';
import type { Clock } from '../../platform/clock.js';

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

  constructor(
    private readonly orm: Orm,
    private readonly publisher: Redis,
    private readonly ttlMs: number,
    private readonly clock: Clock,
  ) {}

  /** Subscribes to invalidations from other nodes; returns the unsubscribe. */
  async listen(subscriber: Redis): Promise<() => Promise<void>> {
    await subscriber.subscribe(verifyKeyInvalidationChannel);
    const onMessage = (channel: string, message: string) => {
      if (channel === verifyKeyInvalidationChannel) this.drop(message);
    };
    subscriber.on('message', onMessage);
    return async () => {
      subscriber.off('message', onMessage);
      await subscriber.unsubscribe(verifyKeyInvalidationChannel);
    };
  }

  async keysFor(moduleCode: string, customerAccountId: string): Promise<VerifyKey[]> {
    const key = cacheKey(moduleCode, customerAccountId);
    const now = this.clock.now().getTime();
    const hit = this.entries.get(key);
    if (hit && now - hit.loadedAt < this.ttlMs) return hit.keys;
    const generation = this.generation;
    const rows = await this.orm.em
      .fork()
      .getConnection()
      .execute<Array<{ kid: string; algorithm: string; public_key_pem: string }>>(
        'select kid, algorithm, public_key_pem from customer_keys where module_code = ? and customer_account_id = ?',
        [moduleCode, customerAccountId],
      );
    const keys = await Promise.all(
      rows.map(async (r) => ({ kid: r.kid, algorithm: r.algorithm, key: await importSPKI(r.public_key_pem, r.algorithm) })),
    );
    if (generation === this.generation) this.entries.set(key, { keys, loadedAt: now });
    return keys;
  }

  /** Drops the cached keys of one customer on this node and every other node. */
  async invalidate(moduleCode: string, customerAccountId: string): Promise<void> {
    const key = cacheKey(moduleCode, customerAccountId);
    this.drop(key);
    await this.publisher.publish(verifyKeyInvalidationChannel, key);
  }

  private drop(key: string): void {
    this.generation += 1;
    this.entries.delete(key);
  }
}
