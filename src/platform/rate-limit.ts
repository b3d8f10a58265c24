// Fixed-window request counters in Redis, shared by every node: one script call increments every window of a
// subject at once, and the first hit of a window sets its expiry. Used by the partner gate (per IP, per minute and
// per day), chat sends (per account, per minute) and the workspace gate (per workspace, per minute and hour).
import { slotTag, type Redis } from './redis.js';
import type { Clock } from './clock.js';
import { withinCommandTimeout } from './redis-deadline.js';
import { counterLifetime } from './counter-lifetime.js';

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
  /** Whether this hit was counted (always in mode all, never in peek). */
  counted: boolean;
}

// KEYS: one counter per window; ARGV: their expiries, the mode, their limits, then the units of this hit. Returns the
// counts in the same order and, last, 1 when this call counted. Modes: all (every hit counts, refused ones too),
// admitted (counts only when the units fit below every window's limit, atomically, so a refused hit consumes
// nothing), peek (reads only).
const script = `
local n = #KEYS
local mode = ARGV[n + 1]
local units = tonumber(ARGV[2 * n + 2])
local counts = {}
if mode ~= 'all' then
  local blocked = false
  for i, key in ipairs(KEYS) do
    counts[i] = tonumber(redis.call('GET', key) or '0')
    if counts[i] + units > tonumber(ARGV[n + 1 + i]) then blocked = true end
  end
  if mode == 'peek' or blocked then
    counts[n + 1] = 0
    return counts
  end
end
for i, key in ipairs(KEYS) do
  local c = redis.call('INCRBY', key, units)
  if c == units then redis.call('EXPIRE', key, ARGV[i]) end
  counts[i] = c
end
counts[n + 1] = 1
return counts
`;

export type CountMode = 'all' | 'admitted' | 'peek';

export interface HitOptions {
  /** Default all. */
  mode?: CountMode;
  /** Limits for this hit, one per window in order, instead of the windows' own (a per-subject plan). */
  limits?: number[];
  /**
   * Hits counted at once (default 1), all or none in mode admitted; at most the smallest limit, so that a request
   * bigger than a window still fits in an empty one.
   */
  units?: number;
}

type CounterRedis = Redis & {
  platformRateHit(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<number[]>;
};

export class FixedWindowCounter {
  private readonly redis: CounterRedis;

  /**
   * Keys are `<prefix>:<window name>:<window index>:<subject>`; on a cluster the subject is a hash tag
   * (`...:{<subject>}`), so that the windows one script call counts share a slot.
   */
  constructor(
    redis: Redis,
    private readonly prefix: string,
    readonly windows: RateWindow[],
    private readonly clock: Clock,
  ) {
    if (windows.length === 0) throw new Error('FixedWindowCounter needs at least one window');
    if (!('platformRateHit' in redis)) redis.defineCommand('platformRateHit', { lua: script });
    this.redis = redis as CounterRedis;
  }

  /** Counts one hit of subject in every window (see CountMode). */
  async hit(subject: string, options: HitOptions = {}): Promise<RateOutcome> {
    const mode = options.mode ?? 'all';
    const limits = this.windows.map((w, i) => options.limits?.[i] ?? w.limit);
    const units = Math.max(1, Math.min(options.units ?? 1, ...limits));
    const nowSec = Math.floor(this.clock.now().getTime() / 1000);
    const indices = this.windows.map((w) => Math.floor(nowSec / w.seconds));
    const tagged = slotTag(this.redis, subject);
    const keys = this.windows.map((w, i) => `${this.prefix}:${w.name}:${indices[i]}:${tagged}`);
    const ttls = this.windows.map((w) => counterLifetime(w.seconds));
    const result = await withinCommandTimeout(this.redis.platformRateHit(keys.length, ...keys, ...ttls, mode, ...limits, units));
    const counted = result[keys.length] === 1;
    const windows = this.windows.map((w, i) => ({
      window: { ...w, limit: limits[i]! },
      count: result[i] ?? 0,
      resetIn: (indices[i]! + 1) * w.seconds - nowSec,
    }));
    // mode all: a window is exceeded once its count passes the limit; mode admitted: a hit that was not counted
    // found a window with no room left for its units.
    const exceededBy = (w: WindowState) =>
      mode === 'all' ? w.count > w.window.limit : mode === 'admitted' && !counted && w.count + units > w.window.limit;
    const exceeded = windows.filter(exceededBy).sort((a, b) => b.resetIn - a.resetIn)[0];
    return exceeded
      ? { windows, counted, refusal: { window: exceeded.window, limit: exceeded.window.limit, retryAfter: exceeded.resetIn } }
      : { windows, counted };
  }
}
