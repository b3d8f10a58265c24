// Presence in Redis, shared by every node: per account a sorted set of its open sessions scored by the time each
// stops counting unless a heart-beat refreshes it, the AWAY setting and last-seen. No PostgreSQL write, ever.
import type { Redis } from '../../platform/redis.js';
import { presenceKeepMs } from './limits.js';

const sessionsKey = (accountId: string) => `presence:sessions:${accountId}`;
const awayKey = (accountId: string) => `presence:away:${accountId}`;
const seenKey = (accountId: string) => `presence:seen:${accountId}`;

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

export interface StoredPresence {
  online: boolean;
  away: boolean;
  /** Epoch ms of the last sign of life; null when never seen. */
  lastSeen: number | null;
}

/** Real time throughout, as Redis counts its expiries: presence must agree across nodes, not with a test clock. */
export class PresenceStore {
  constructor(private readonly redis: Redis) {}

  /** Opens or refreshes a session's entry for ttlMs; returns whether the account was offline until now. */
  async touch(accountId: string, sessionId: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    const before = (await this.redis.eval(
      touchScript,
      2,
      sessionsKey(accountId),
      seenKey(accountId),
      now,
      now + ttlMs,
      sessionId,
      ttlMs * 2,
      presenceKeepMs,
    )) as number;
    return before === 0;
  }

  /** Removes a session's entry; returns whether it was the account's last live one. */
  async drop(accountId: string, sessionId: string): Promise<boolean> {
    const left = (await this.redis.eval(
      dropScript,
      2,
      sessionsKey(accountId),
      seenKey(accountId),
      Date.now(),
      sessionId,
      presenceKeepMs,
    )) as number;
    return left === 0;
  }

  /** Sets or clears AWAY; returns whether the setting changed. */
  async setAway(accountId: string, away: boolean): Promise<boolean> {
    if (away) return (await this.redis.set(awayKey(accountId), '1', 'PX', presenceKeepMs, 'GET')) === null;
    return (await this.redis.del(awayKey(accountId))) > 0;
  }

  async read(accountIds: string[]): Promise<Map<string, StoredPresence>> {
    const now = Date.now();
    const pipeline = this.redis.pipeline();
    for (const id of accountIds) {
      pipeline.zcount(sessionsKey(id), `(${now}`, '+inf');
      pipeline.exists(awayKey(id));
      pipeline.get(seenKey(id));
    }
    const results = (await pipeline.exec()) ?? [];
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
