// The in-process outbox relay of a process that runs the workers: drain requests run the drain here instead of
// going through a BullMQ job, so the realtime fan-out starts within a millisecond of the commit.
// One drain at a time; a request during a drain runs one more after it (its rows may have committed after that
// drain read the table). Drains start at least relayIntervalMs apart: on an idle node the first request drains at
// once, under a stream of sends one drain takes the rows of several (each drain is several round trips, whose cost
// on a busy machine lands on the sends beside it).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from './logger.js';

export interface LocalDrain {
  /** Whether a drain is set: requests then run here. */
  readonly active: boolean;
  /** Runs the drain soon (now, after the one under way, or once relayIntervalMs has passed since the last start). */
  request(): void;
  /**
   * Sets the drain; null goes back to jobs. The promise settles when a drain under way has finished; a drain still
   * waiting for its turn then runs at once, so no request is left behind.
   */
  use(drain: (() => Promise<unknown>) | null): Promise<void>;
  /** Takes no more requests and waits for the drain under way. */
  close(): Promise<void>;
}

export function localDrain(log: Logger, relayIntervalMs: number): LocalDrain {
  let local: (() => Promise<unknown>) | null = null;
  let running: Promise<void> | undefined;
  let again = false;
  let lastStart = -Infinity;
  let timer: NodeJS.Timeout | undefined;
  const untilNext = () => lastStart + relayIntervalMs - performance.now();
  const drainHere = (drain: () => Promise<unknown>) => {
    if (running) {
      again = true;
      return;
    }
    if (timer) return;
    const wait = untilNext();
    if (wait > 0) {
      timer = setTimeout(() => {
        timer = undefined;
        if (local) drainHere(local);
      }, wait);
      return;
    }
    running = (async () => {
      try {
        do {
          again = false;
          lastStart = performance.now();
          await drain();
          if (again && untilNext() > 0) await sleep(untilNext());
        } while (again);
      } catch (err) {
        log.warn({ err }, 'outbox drain failed; the periodic drain catches up');
      } finally {
        running = undefined;
      }
    })();
  };
  return {
    get active() {
      return local !== null;
    },
    request() {
      if (local) drainHere(local);
    },
    async use(drain) {
      const previous = local;
      local = drain;
      await running;
      // Going back to jobs (a stop): a drain still waiting for its turn runs now, so no request is left behind.
      if (drain === null && timer) {
        clearTimeout(timer);
        timer = undefined;
        if (previous)
          await previous().catch((err: unknown) => log.warn({ err }, 'last outbox drain failed; the periodic drain catches up'));
      }
    },
    async close() {
      local = null;
      await running;
    },
  };
}
