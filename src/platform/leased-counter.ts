// A per-subject allowance in one fixed Redis window, shared by every node, taken in leases so that a fast subject's
// hits do not each wait on Redis. A subject's first hit in a window takes one unit (INCRBY 1, exact as a plain
// counter); when a node spends its lease within a second, its next lease is twice as large, up to a bound that is a
// small share of the limit. Spending a leased unit is local. Redis says how many of a lease fall within the limit,
// so no node admits beyond it; units a node leased but did not spend count as used, so a subject spreading a burst
// over several nodes may be refused up to (lease - 1) units per other node early in that window.
import type { Clock } from './clock.js';
import type { Redis } from './redis.js';
import { withinCommandTimeout } from './redis-deadline.js';
import { counterLifetime } from './counter-lifetime.js';

export interface LeasedWindow {
  seconds: number;
  limit: number;
}

/** How an admitted or refused hit went; retryAfter (seconds until the window resets) only on a refusal. */
export type LeaseOutcome = { admitted: true } | { admitted: false; retryAfter: number };

/** A lease spent faster than this doubles the next one. */
const FAST_LEASE_MS = 1_000;
/** Leases grow to at most this many units, and to at most a fiftieth of the limit (one unit below 100). */
const MAX_LEASE = 64;

interface SubjectLease {
  /** Units leased and not spent yet. */
  left: number;
  /** The size of the last lease (0 after a refusal: the next one is a single unit). */
  next: number;
  takenAt: number;
}

// KEYS[1] the window's counter; ARGV: units, expiry. Returns the count after adding them.
const script = `
local c = redis.call('INCRBY', KEYS[1], ARGV[1])
if c == tonumber(ARGV[1]) then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return c
`;

type LeaseRedis = Redis & {
  platformLeaseHit(numberOfKeys: number, key: string, units: number, ttl: number): Promise<number>;
};

export class LeasedWindowCounter {
  private readonly redis: LeaseRedis;
  private readonly maxLease: number;
  private window = -1;
  private leases = new Map<string, SubjectLease>();

  /** Keys are `<prefix>:<window index>:<subject>`. */
  constructor(
    redis: Redis,
    private readonly prefix: string,
    private readonly config: LeasedWindow,
    private readonly clock: Clock,
  ) {
    if (!('platformLeaseHit' in redis)) redis.defineCommand('platformLeaseHit', { lua: script });
    this.redis = redis as LeaseRedis;
    this.maxLease = Math.max(1, Math.min(MAX_LEASE, Math.floor(config.limit / 50)));
  }

  /**
   * Counts `units` hits of subject at once (a forward of many messages), admitted only when all of them fit; they
   * count in Redis whatever the answer, as refused single hits do. Leases already taken stay as they are.
   */
  async hitMany(subject: string, units: number): Promise<LeaseOutcome> {
    if (units <= 1) return this.hit(subject);
    const nowSec = Math.floor(this.clock.now().getTime() / 1000);
    const index = Math.floor(nowSec / this.config.seconds);
    const key = `${this.prefix}:${index}:${subject}`;
    const count = await withinCommandTimeout(this.redis.platformLeaseHit(1, key, units, counterLifetime(this.config.seconds)));
    return count <= this.config.limit ? { admitted: true } : { admitted: false, retryAfter: (index + 1) * this.config.seconds - nowSec };
  }

  /** Counts one hit of subject (refused hits count too). */
  async hit(subject: string): Promise<LeaseOutcome> {
    const now = this.clock.now().getTime();
    const nowSec = Math.floor(now / 1000);
    const index = Math.floor(nowSec / this.config.seconds);
    if (index !== this.window) {
      // Every subject's window turns at the same instant: the old leases go with it.
      this.window = index;
      this.leases = new Map();
    }
    const lease = this.leases.get(subject);
    // Leased units are spent only while Redis answers: an outage refuses hits at once, as a plain counter does.
    if (lease && lease.left > 0 && this.redis.status === 'ready') {
      lease.left--;
      return { admitted: true };
    }
    const units = lease && now - lease.takenAt < FAST_LEASE_MS ? Math.min(this.maxLease, Math.max(1, lease.next * 2)) : 1;
    const key = `${this.prefix}:${index}:${subject}`;
    const count = await withinCommandTimeout(this.redis.platformLeaseHit(1, key, units, counterLifetime(this.config.seconds)));
    const granted = Math.max(0, Math.min(units, this.config.limit - (count - units)));
    // A window that turned during the call has new leases: this one's spare units are not kept.
    if (index === this.window) {
      const current = this.leases.get(subject) ?? { left: 0, next: 0, takenAt: now };
      // Hits that went to Redis at the same time each add what they were granted beyond their own unit.
      current.left += Math.max(0, granted - 1);
      // A refused subject goes on with single units: its refusals count one each.
      current.next = granted > 0 ? units : 0;
      current.takenAt = now;
      this.leases.set(subject, current);
    }
    return granted > 0 ? { admitted: true } : { admitted: false, retryAfter: (index + 1) * this.config.seconds - nowSec };
  }
}
