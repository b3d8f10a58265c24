// The rate counter by calling IP address, first step of the gate. Fixed per-minute and per-day windows counted in
// Redis with one script call, so every node shares one allowance and switching keys does not reset it.
import type { Redis } from 'ioredis';
import type { Clock } from '../../platform/clock.js';

export interface RateLimits {
  perMinute: number;
  perDay: number;
}

/** Why a request is refused: the exceeded window, its limit and the seconds until it resets. */
export interface RateRefusal {
  window: 'minute' | 'day';
  limit: number;
  retryAfter: number;
}

export interface RateDecision {
  limit: number;
  remaining: number;
  /** Seconds until the per-minute window resets. */
  reset: number;
  /** Set when the request is over a limit. */
  refusal?: RateRefusal;
}

// INCR both windows; the first hit of a window sets its expiry. Returns both counts.
const script = `
local m = redis.call('INCR', KEYS[1])
if m == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local d = redis.call('INCR', KEYS[2])
if d == 1 then redis.call('EXPIRE', KEYS[2], ARGV[2]) end
return {m, d}
`;

interface RateRedis extends Redis {
  partnerRateHit(minuteKey: string, dayKey: string, minuteTtl: number, dayTtl: number): Promise<[number, number]>;
}

export class RateLimiter {
  private readonly redis: RateRedis;

  constructor(redis: Redis, private readonly limits: RateLimits, private readonly clock: Clock) {
    if (!('partnerRateHit' in redis)) redis.defineCommand('partnerRateHit', { numberOfKeys: 2, lua: script });
    this.redis = redis as RateRedis;
  }

  async hit(ip: string): Promise<RateDecision> {
    const nowSec = Math.floor(this.clock.now().getTime() / 1000);
    const minute = Math.floor(nowSec / 60);
    const day = Math.floor(nowSec / 86_400);
    const [m, d] = await this.redis.partnerRateHit(`partner:rate:m:${minute}:${ip}`, `partner:rate:d:${day}:${ip}`, 120, 172_800);
    const { perMinute, perDay } = this.limits;
    const reset = (minute + 1) * 60 - nowSec;
    const decision: RateDecision = { limit: perMinute, remaining: Math.max(0, Math.min(perMinute - m, perDay - d)), reset };
    if (d > perDay) decision.refusal = { window: 'day', limit: perDay, retryAfter: (day + 1) * 86_400 - nowSec };
    else if (m > perMinute) decision.refusal = { window: 'minute', limit: perMinute, retryAfter: reset };
    return decision;
  }
}
