// Presence in Redis, shared by every node: per account a sorted set of its open sessions scored by the time each
// stops counting unless a heart-beat refreshes it, the AWAY setting and last-seen. No PostgreSQL write, ever.
import { isCluster, slotTag, type Redis } from '../../platform/redis.js';
import { presenceKeepMs } from './limits.js';

/**
 * Adds or refreshes one session: drops entries past their time, notes how many were alive before (this session's
 * own entry included, so that a refresh of a live session is no change), scores this one until now+ttl, keeps the
 * key for at least twice ttl, records last-seen. Returns the count before.
 */
const touchScript = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local before = redis.call('ZCARD', KEYS[1])
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
-- Only ever lengthened: another session of the account may have a longer heart-beat interval.
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[5])
return before`;

/** Removes one session and records last-seen; returns how many sessions are left alive. */
const dropScript = `
redis.call('ZREM', KEYS[1], ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[3])
return redis.call('ZCARD', KEYS[1])`;

type PresenceRedis = Redis & {
  presenceTouch(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<number>;
  presenceDrop(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<number>;
};

export interface StoredPresence {
  online: boolean;
  away: boolean;
  /** Epoch ms of the last sign of life; null when never seen. */
  lastSeen: number | null;
}

/** Real time throughout, as Redis counts its expiries: presence must agree across nodes, not with a test clock. */
export class PresenceStore {
  private readonly redis: PresenceRedis;

  constructor(redis: Redis) {
    // Defined commands go as EVALSHA: a heart-beat's refresh does not send the script's text each time.
    if (!('presenceTouch' in redis)) redis.defineCommand('presenceTouch', { lua: touchScript });
    if (!('presenceDrop' in redis)) redis.defineCommand('presenceDrop', { lua: dropScript });
    this.redis = redis as PresenceRedis;
  }

  // An account's keys share a hash slot on a Redis Cluster (one script call touches two of them).
  private sessionsKey(accountId: string): string {
    return `presence:sessions:${slotTag(this.redis, accountId)}`;
  }

  private awayKey(accountId: string): string {
    return `presence:away:${slotTag(this.redis, accountId)}`;
  }

  private seenKey(accountId: string): string {
    return `presence:seen:${slotTag(this.redis, accountId)}`;
  }

  /** Opens or refreshes a session's entry for ttlMs; returns whether the account was offline until now. */
  async touch(accountId: string, sessionId: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    const before = await this.redis.presenceTouch(
      2,
      this.sessionsKey(accountId),
      this.seenKey(accountId),
      now,
      now + ttlMs,
      sessionId,
      ttlMs * 2,
      presenceKeepMs,
    );
    return before === 0;
  }

  /** Removes a session's entry; returns whether it was the account's last live one. */
  async drop(accountId: string, sessionId: string): Promise<boolean> {
    const left = await this.redis.presenceDrop(
      2,
      this.sessionsKey(accountId),
      this.seenKey(accountId),
      Date.now(),
      sessionId,
      presenceKeepMs,
    );
    return left === 0;
  }

  /** Forgets everything kept of the account (sessions, AWAY, last seen), as its erasure asks; one slot, one call. */
  async forget(accountId: string): Promise<void> {
    await this.redis.del(this.sessionsKey(accountId), this.awayKey(accountId), this.seenKey(accountId));
  }

  /** Sets or clears AWAY; returns whether the setting changed. */
  async setAway(accountId: string, away: boolean): Promise<boolean> {
    if (away) return (await this.redis.set(this.awayKey(accountId), '1', 'PX', presenceKeepMs, 'GET')) === null;
    return (await this.redis.del(this.awayKey(accountId))) > 0;
  }

  async read(accountIds: string[]): Promise<Map<string, StoredPresence>> {
    const now = Date.now();
    // A Redis Cluster takes a pipeline within one slot only: there each account's three reads go as a pipeline of
    // their own (sent without waiting for one another all the same).
    const groups = isCluster(this.redis) ? accountIds.map((id) => [id]) : [accountIds];
    const results = (
      await Promise.all(
        groups.map(async (ids) => {
          const pipeline = this.redis.pipeline();
          for (const id of ids) {
            pipeline.zcount(this.sessionsKey(id), `(${now}`, '+inf');
            pipeline.exists(this.awayKey(id));
            pipeline.get(this.seenKey(id));
          }
          return (await pipeline.exec()) ?? [];
        }),
      )
    ).flat();
    const out = new Map<string, StoredPresence>();
    accountIds.forEach((id, i) => {
      const [[e1, live], [e2, away], [e3, seen]] = results.slice(i * 3, i * 3 + 3) as [
        [Error | null, unknown],
        [Error | null, unknown],
        [Error | null, unknown],
      ];
      if (e1 || e2 || e3) throw e1 ?? e2 ?? e3;
      out.set(id, { online: Number(live) > 0, away: Number(away) > 0, lastSeen: seen ? Number(seen) : null });
    });
    return out;
  }
}
