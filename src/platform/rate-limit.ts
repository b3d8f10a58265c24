// Fixed-window request counters in Redis, shared by every node: one script call increments every window of a
// subject at once, and the first hit of a window sets its expiry. Used by the partner gate (per IP, per minute and
// per day) and by chat sends (per account, per minute).
import type { Redis } from './redis.js';
import type { Clock } from './clock.js';

export interface RateWindow {
  /** Part of the Redis key, e.g. "m". */
  name: string;
  seconds: number;
  limit: number;
}

export interface WindowState {
  window: RateWindow;
  count: number;
  /** Seconds until this window resets. */
  resetIn: number;
}

/** Why a hit is refused: the exceeded window (the one that resets last), its limit and the seconds until then. */
export interface RateRefusal {
  window: RateWindow;
  limit: number;
  retryAfter: number;
}

export interface RateOutcome {
  windows: WindowState[];
  refusal?: RateRefusal;
}

// KEYS: one counter per window; ARGV: their expiries. Returns the counts in the same order.
const script = `
local counts = {}
for i, key in ipairs(KEYS) do
  local n = redis.call('INCR', key)
  if n == 1 then redis.call('EXPIRE', key, ARGV[i]) end
  counts[i] = n
end
return counts
`;

interface CounterRedis extends Redis {
  platformRateHit(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<number[]>;
}

export class FixedWindowCounter {
  private readonly redis: CounterRedis;

  /** Keys are `<prefix>:<window name>:<window index>:<subject>`. */
  constructor(redis: Redis, private readonly prefix: string, readonly windows: RateWindow[], private readonly clock: Clock) {
    if (windows.length === 0) throw new Error('FixedWindowCounter needs at least one window');
    if (!('platformRateHit' in redis)) redis.defineCommand('platformRateHit', { lua: script });
    this.redis = redis as CounterRedis;
  }

  /** Counts one hit of subject in every window. */
  async hit(subject: string): Promise<RateOutcome> {
    const nowSec = Math.floor(this.clock.now().getTime() / 1000);
    const indices = this.windows.map((w) => Math.floor(nowSec / w.seconds));
    const keys = this.windows.map((w, i) => `${this.prefix}:${w.name}:${indices[i]}:${subject}`);
    // A counter outlives its window by one more window, so a late hit near the boundary still finds it.
    const ttls = this.windows.map((w) => w.seconds * 2);
    const counts = await this.redis.platformRateHit(keys.length, ...keys, ...ttls);
    const windows = this.windows.map((window, i) => ({ window, count: counts[i] ?? 0, resetIn: (indices[i]! + 1) * window.seconds - nowSec }));
    const exceeded = windows.filter((w) => w.count > w.window.limit).sort((a, b) => b.resetIn - a.resetIn)[0];
    return exceeded ? { windows, refusal: { window: exceeded.window, limit: exceeded.window.limit, retryAfter: exceeded.resetIn } } : { windows };
  }
}
