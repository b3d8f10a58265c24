// Two fixed windows (e.g. minute and day, or minute and hour) counted in Redis with one script call, so every node
// shares one allowance. Modes:
//   all       INCR both windows, whatever the counts (refused requests count too);
//   admitted  INCR both only when both are below their limits, atomically (refused requests count nothing);
//   peek      read both without counting.
// The first hit of a window sets its expiry.
import type { Redis } from 'ioredis';

const script = `
local mode = ARGV[3]
if mode ~= 'all' then
  local a = tonumber(redis.call('GET', KEYS[1]) or '0')
  local b = tonumber(redis.call('GET', KEYS[2]) or '0')
  if mode == 'peek' or a >= tonumber(ARGV[4]) or b >= tonumber(ARGV[5]) then return {a, b, 0} end
end
local m = redis.call('INCR', KEYS[1])
if m == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local d = redis.call('INCR', KEYS[2])
if d == 1 then redis.call('EXPIRE', KEYS[2], ARGV[2]) end
return {m, d, 1}
`;

export type WindowMode = 'all' | 'admitted' | 'peek';

export interface WindowSpec {
  key: string;
  /** Seconds the counter lives after its first hit: at least the window's length. */
  ttl: number;
  /** Used by the admitted mode. */
  limit: number;
}

export interface WindowCounts {
  first: number;
  second: number;
  /** Whether this call counted (always in mode all, never in peek). */
  counted: boolean;
}

interface WindowRedis extends Redis {
  fixedWindowHit(k1: string, k2: string, ttl1: number, ttl2: number, mode: WindowMode, limit1: number, limit2: number): Promise<[number, number, number]>;
}

export class FixedWindows {
  private readonly redis: WindowRedis;

  constructor(redis: Redis) {
    if (!('fixedWindowHit' in redis)) redis.defineCommand('fixedWindowHit', { numberOfKeys: 2, lua: script });
    this.redis = redis as WindowRedis;
  }

  async hit(first: WindowSpec, second: WindowSpec, mode: WindowMode): Promise<WindowCounts> {
    const [a, b, counted] = await this.redis.fixedWindowHit(first.key, second.key, first.ttl, second.ttl, mode, first.limit, second.limit);
    return { first: a, second: b, counted: counted === 1 };
  }
}
