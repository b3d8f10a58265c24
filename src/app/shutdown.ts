// The platform's stop, built up while it starts: each part registers how it stops right after it starts, so a start
// that fails half-way stops exactly what it started, and a stop runs the parts in reverse start order.
import type { Logger } from '../platform/logger.js';

export interface Shutdown {
  /** Registers how the part just started stops; runs after the parts started later. */
  add(stop: () => Promise<void>): void;
  /** Registers work to run first, while everything is still up; hooks run together. */
  onDrain(hook: () => Promise<void>): void;
  /**
   * Drain hooks, then every stop in reverse order; one that fails is logged and the others still run. Idempotent:
   * every call after the first returns the first call's promise, so nothing is stopped twice.
   */
  stop(): Promise<void>;
}

export function createShutdown(log: Logger): Shutdown {
  const stops: Array<() => Promise<void>> = [];
  const drainHooks: Array<() => Promise<void>> = [];
  let stopping: Promise<void> | undefined;
  const runStops = async () => {
    await Promise.all(drainHooks.splice(0).map((hook) => hook().catch((err: unknown) => log.warn({ err }, 'drain hook failed'))));
    for (const stop of stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (err) {
        log.warn({ err }, 'error during shutdown');
      }
    }
  };
  return {
    add: (stop) => void stops.push(stop),
    onDrain: (hook) => void drainHooks.push(hook),
    stop: () => (stopping ??= runStops()),
  };
}
