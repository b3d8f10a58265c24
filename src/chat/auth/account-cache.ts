// What authentication needs of an account (status and owner), cached on each node so that a request with a warm
// cache reaches its handler without a database round trip. Every status change drops the entry on every node
// through Redis before the change is answered (AccountService.setStatus); the TTL bounds staleness should an
// invalidation be lost, and while the subscription is down the cache is bypassed.
import type { Clock } from '../../platform/clock.js';
import type { SqlPool } from '../../platform/db/sql.js';
import { InvalidationChannel } from '../../platform/invalidation.js';
import type { Redis } from '../../platform/redis.js';

export const accountInvalidationChannel = 'chat:accounts:invalidate';

export interface AccountState {
  /** The stored (canonical, lowercase) id. */
  id: string;
  status: string;
  moduleCode: string;
  customerAccountId: string;
}

interface Entry {
  state: AccountState;
  loadedAt: number;
}

/** Entries beyond this are evicted oldest first, so memory stays bounded whatever the number of accounts. */
const maxEntries = 100_000;

export class AccountCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped on every invalidation, so a load that raced with one is not cached. */
  private generation = 0;
  private readonly channel: InvalidationChannel;

  constructor(
    private readonly sql: SqlPool,
    publisher: Redis,
    private readonly ttlMs: number,
    private readonly clock: Clock,
  ) {
    this.channel = new InvalidationChannel(publisher, accountInvalidationChannel);
  }

  /** Subscribes to invalidations from other nodes; returns the unsubscribe. */
  listen(subscriber: Redis): Promise<() => Promise<void>> {
    return this.channel.listen(subscriber, { drop: (id) => this.drop(id), dropAll: () => this.dropAll() });
  }

  /** The account, or null when no account has this id (not cached: it may be registered at any moment). */
  async get(accountId: string): Promise<AccountState | null> {
    const id = accountId.toLowerCase();
    const now = this.clock.now().getTime();
    const hit = this.entries.get(id);
    if (hit && now - hit.loadedAt < this.ttlMs && this.channel.isLive) return hit.state;
    const generation = this.generation;
    const { rows } = await this.sql.query<{ id: string; status: string; module_code: string; customer_account_id: string }>(
      'select id, status, module_code, customer_account_id from accounts where id = $1',
      [id],
    );
    const row = rows[0];
    if (!row) return null;
    const state: AccountState = { id: row.id, status: row.status, moduleCode: row.module_code, customerAccountId: row.customer_account_id };
    if (generation === this.generation && this.channel.isLive) {
      this.entries.delete(id);
      this.entries.set(id, { state, loadedAt: now });
      if (this.entries.size > maxEntries) this.entries.delete(this.entries.keys().next().value!);
    }
    return state;
  }

  /** Drops the account on this node, then on every other node; resolves once Redis has relayed the message. */
  async invalidate(accountId: string): Promise<void> {
    const id = accountId.toLowerCase();
    this.drop(id);
    await this.channel.publish(id);
  }

  private drop(id: string): void {
    this.generation += 1;
    this.entries.delete(id);
  }

  private dropAll(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
