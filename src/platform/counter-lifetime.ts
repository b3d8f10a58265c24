/**
 * How long a window's counter lives in Redis, in seconds: its window and one more (at least a minute more), so a late
 * hit near the boundary still finds it. The window's index in the key, not the expiry, decides which count applies:
 * the expiry only frees the memory, and a short window's counter must not vanish while a hit that belongs to it is
 * still on its way (a slow caller, a clock that stands still in a test).
 */
export function counterLifetime(windowSeconds: number): number {
  return windowSeconds + Math.max(windowSeconds, 60);
}
