// What authentication needs of an account (status and owner), cached on each node so that a request with a warm
// cache reaches its handler without a database round trip. Every status change drops the entry on every node
// through Redis before the change is answered (AccountService.setStatus); the TTL bounds staleness should an
// invalidation be lost, and while the subscription is down the cache is bypassed.
import type { Clock } from '../../platform/clock.js';
import type { SqlPool } from '../../platform/db/sql.js';
import { NodeCache } from '../../platform/node-cache.js';
import type { Redis } from '../../platform/redis.js';
import { accountById } from './queries.js';

export const accountInvalidationChannel = 'chat:accounts:invalidate';

export interface AccountState {
  /** The stored (canonical, lowercase) id. */
  id: string;
  status: string;
  moduleCode: string;
  customerAccountId: string;
}

/** Entries beyond this are evicted oldest first, so memory stays bounded whatever the number of accounts. */
const maxEntries = 100_000;

export class AccountCache {
  private readonly cache: NodeCache<AccountState>;

  constructor(
    private readonly sql: SqlPool,
    publisher: Redis,
    ttlMs: number,
    clock: Clock,
  ) {
    this.cache = new NodeCache(publisher, accountInvalidationChannel, ttlMs, clock, { maxEntries });
  }

  /** Subscribes to invalidations from other nodes; returns the unsubscribe. */
  listen(subscriber: Redis): Promise<() => Promise<void>> {
    return this.cache.listen(subscriber);
  }

  /** The account, or null when no account has this id (not cached: it may be registered at any moment). */
  async get(accountId: string): Promise<AccountState | null> {
    const id = accountId.toLowerCase();
    return (await this.cache.get(id, () => this.load(id))) ?? null;
  }

  /** Drops the account on this node, then on every other node; resolves once Redis has relayed the message. */
  invalidate(accountId: string): Promise<void> {
    return this.cache.invalidate(accountId.toLowerCase());
  }

  private async load(id: string): Promise<AccountState | undefined> {
    const row = await accountById(this.sql, id);
    return row && { id: row.id, status: row.status, moduleCode: row.module_code, customerAccountId: row.customer_account_id };
  }
}
