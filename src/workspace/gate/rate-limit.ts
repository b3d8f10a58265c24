// The rate limit per workspace: an hourly allowance and a per-minute burst by plan, counted in Redis by the shared
// fixed-window script (src/platform/rate-windows.ts) so every node shares them. Only admitted requests count: a
// refused one consumes nothing, so a client that retries too early does not burn its hour.
import type { Redis } from 'ioredis';
import type { Clock } from '../../platform/clock.js';
import { FixedWindows, type WindowMode } from '../../platform/rate-windows.js';
import type { RateLimits } from '../plans.js';

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
  private readonly windows: FixedWindows;

  constructor(redis: Redis, private readonly clock: Clock) {
    this.windows = new FixedWindows(redis);
  }

  /** Counts a request (mode admitted), or only reads the counters (mode peek: a request refused before counting). */
  async hit(workspaceId: string, limits: RateLimits, mode: Extract<WindowMode, 'admitted' | 'peek'> = 'admitted'): Promise<RateDecision> {
    const nowSec = Math.floor(this.clock.now().getTime() / 1000);
    const minute = Math.floor(nowSec / 60);
    const hour = Math.floor(nowSec / 3600);
    const counts = await this.windows.hit(
      { key: `svc:rate:m:${minute}:${workspaceId}`, ttl: 120, limit: limits.perMinute },
      { key: `svc:rate:h:${hour}:${workspaceId}`, ttl: 7200, limit: limits.perHour },
      mode,
    );
    const minuteLeft = Math.max(0, limits.perMinute - counts.first);
    const hourLeft = Math.max(0, limits.perHour - counts.second);
    const minuteEnd = (minute + 1) * 60;
    const hourEnd = (hour + 1) * 3600;
    const decision: RateDecision = {
      limit: limits.perHour,
      remaining: Math.min(minuteLeft, hourLeft),
      reset: minuteLeft < hourLeft ? minuteEnd : hourEnd,
    };
    if (mode === 'admitted' && !counts.counted) {
      decision.refusal = counts.second >= limits.perHour
        ? { window: 'hour', limit: limits.perHour, retryAfter: hourEnd - nowSec }
        : { window: 'minute', limit: limits.perMinute, retryAfter: minuteEnd - nowSec };
      decision.reset = counts.second >= limits.perHour ? hourEnd : minuteEnd;
    }
    return decision;
  }
}
