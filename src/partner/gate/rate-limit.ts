// The rate counter by calling IP address, first step of the gate. Fixed per-minute and per-day windows counted in
// Redis with one script call (src/platform/rate-windows.ts), so every node shares one allowance and switching keys
// does not reset it.
import type { Redis } from 'ioredis';
import type { Clock } from '../../platform/clock.js';
import { FixedWindows } from '../../platform/rate-windows.js';

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

export class RateLimiter {
  private readonly windows: FixedWindows;

  constructor(redis: Redis, private readonly limits: RateLimits, private readonly clock: Clock) {
    this.windows = new FixedWindows(redis);
  }

  async hit(ip: string): Promise<RateDecision> {
    const nowSec = Math.floor(this.clock.now().getTime() / 1000);
    const minute = Math.floor(nowSec / 60);
    const day = Math.floor(nowSec / 86_400);
    const { perMinute, perDay } = this.limits;
    // Every request counts, refused ones too (mode all).
    const { first: m, second: d } = await this.windows.hit(
      { key: `partner:rate:m:${minute}:${ip}`, ttl: 120, limit: perMinute },
      { key: `partner:rate:d:${day}:${ip}`, ttl: 172_800, limit: perDay },
      'all',
    );
    const reset = (minute + 1) * 60 - nowSec;
    const decision: RateDecision = { limit: perMinute, remaining: Math.max(0, Math.min(perMinute - m, perDay - d)), reset };
    if (d > perDay) decision.refusal = { window: 'day', limit: perDay, retryAfter: (day + 1) * 86_400 - nowSec };
    else if (m > perMinute) decision.refusal = { window: 'minute', limit: perMinute, retryAfter: reset };
    return decision;
  }
}
