// The rate limit per workspace: an hourly allowance and a per-minute burst by plan, counted in Redis by the shared
// fixed-window counter (src/platform/rate-limit.ts) so every node shares them. Only admitted requests count: a
// refused one consumes nothing, so a client that retries too early does not burn its hour.
import type { Redis } from '../../platform/redis.js';
import type { Clock } from '../../platform/clock.js';
import { FixedWindowCounter, type CountMode } from '../../platform/rate-limit.js';
import type { RateLimits } from '../base/plans.js';

export interface RateDecision {
  /** The hourly limit (X-RateLimit-Limit). */
  limit: number;
  /** The lower of what is left in the hour and in the minute. */
  remaining: number;
  /** Unix time (seconds) at which the binding window ends. */
  reset: number;
  /** Set when the request is refused. */
  refusal?: { window: 'hour' | 'minute'; limit: number; retryAfter: number };
}

export class WorkspaceRateLimiter {
  private readonly counter: FixedWindowCounter;

  constructor(
    redis: Redis,
    private readonly clock: Clock,
  ) {
    // The limits are the workspace's plan, given on every hit.
    this.counter = new FixedWindowCounter(
      redis,
      'svc:rate',
      [
        { name: 'm', seconds: 60, limit: 0 },
        { name: 'h', seconds: 3600, limit: 0 },
      ],
      clock,
    );
  }

  /** Counts a request (mode admitted), or only reads the counters (mode peek: a request refused before counting). */
  async hit(workspaceId: string, limits: RateLimits, mode: Extract<CountMode, 'admitted' | 'peek'> = 'admitted'): Promise<RateDecision> {
    const nowSec = Math.floor(this.clock.now().getTime() / 1000);
    const outcome = await this.counter.hit(workspaceId, { mode, limits: [limits.perMinute, limits.perHour] });
    const [minute, hour] = outcome.windows as [(typeof outcome.windows)[0], (typeof outcome.windows)[0]];
    const minuteLeft = Math.max(0, limits.perMinute - minute.count);
    const hourLeft = Math.max(0, limits.perHour - hour.count);
    const decision: RateDecision = {
      limit: limits.perHour,
      remaining: Math.min(minuteLeft, hourLeft),
      reset: nowSec + (minuteLeft < hourLeft ? minute.resetIn : hour.resetIn),
    };
    if (outcome.refusal) {
      const window = outcome.refusal.window.name === 'h' ? 'hour' : 'minute';
      decision.refusal = { window, limit: outcome.refusal.limit, retryAfter: outcome.refusal.retryAfter };
      decision.reset = nowSec + outcome.refusal.retryAfter;
    }
    return decision;
  }
}
