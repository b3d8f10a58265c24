// The rate counter by calling IP address, first step of the gate. Fixed per-minute and per-day windows counted in
// Redis with one script call (src/platform/rate-limit.ts), so every node shares one allowance and switching keys
// does not reset it.
import type { Redis } from '../../platform/redis.js';
import type { Clock } from '../../platform/clock.js';
import { FixedWindowCounter } from '../../platform/rate-limit.js';

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
  private readonly counter: FixedWindowCounter;

  constructor(
    redis: Redis,
    private readonly limits: RateLimits,
    clock: Clock,
  ) {
    this.counter = new FixedWindowCounter(
      redis,
      'partner:rate',
      [
        { name: 'm', seconds: 60, limit: limits.perMinute },
        { name: 'd', seconds: 86_400, limit: limits.perDay },
      ],
      clock,
    );
  }

  async hit(ip: string): Promise<RateDecision> {
    const { windows, refusal } = await this.counter.hit(ip);
    const [minute, day] = windows as [(typeof windows)[0], (typeof windows)[0]];
    const { perMinute, perDay } = this.limits;
    const decision: RateDecision = {
      limit: perMinute,
      remaining: Math.max(0, Math.min(perMinute - minute.count, perDay - day.count)),
      reset: minute.resetIn,
    };
    if (refusal)
      decision.refusal = { window: refusal.window.name === 'd' ? 'day' : 'minute', limit: refusal.limit, retryAfter: refusal.retryAfter };
    return decision;
  }
}
