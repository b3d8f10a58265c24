// The platform's stop, built up while it starts: each part registers how it stops right after it starts, so a start
// that fails half-way stops exactly what it started, and a stop runs the parts in reverse start order.
import type { Logger } from '../platform/logger.js';

export interface Shutdown {
  /** Registers how the part just started stops; runs after the parts started later. */
  add(stop: () => Promise<void>): void;
  /** Registers work to run first, while everything is still up; hooks run together. */
  onDrain(hook: () => Promise<void>): void;
  /**
   * Registers a server the stops talk to (PostgreSQL, Redis) and how to tell it answers. One that does not when the
   * drain begins is not waited for: the drain says so once and gives each step only a moment.
   */
  dependsOn(name: string, reachable: () => Promise<boolean>): void;
  /**
   * Drain hooks, then every stop in reverse order; one that fails is logged and the others still run. Idempotent:
   * every call after the first returns the first call's promise, so nothing is stopped twice.
   */
  stop(): Promise<void>;
}

export interface ShutdownTimings {
  /** How long the reachability of a dependency is asked about. */
  probeMs: number;
  /** With a dependency gone, how long one step may take before the drain goes on without it. */
  stepWithDeadDependencyMs: number;
}

const defaultTimings: ShutdownTimings = { probeMs: 500, stepWithDeadDependencyMs: 250 };

export function createShutdown(log: Logger, timings: ShutdownTimings = defaultTimings): Shutdown {
  const stops: Array<() => Promise<void>> = [];
  const drainHooks: Array<() => Promise<void>> = [];
  const dependencies = new Map<string, () => Promise<boolean>>();
  let stopping: Promise<void> | undefined;
  const runStops = async () => {
    const dead = await unreachable(dependencies, timings.probeMs);
    for (const dependency of dead) log.warn({ dependency }, 'dependency unreachable at shutdown; not waiting for it');
    // A step that waits on a dead server would wait until SHUTDOWN_TIMEOUT_MS; its failure says only that the server
    // is gone, which the line above said once.
    const step = (run: () => Promise<void>, failure: string) =>
      dead.length === 0
        ? run().catch((err: unknown) => log.warn({ err }, failure))
        : boundedQuietly(run, timings.stepWithDeadDependencyMs, () => log.debug({ dead }, failure));
    await Promise.all(drainHooks.splice(0).map((hook) => step(hook, 'drain hook failed')));
    for (const stop of stops.splice(0).reverse()) await step(stop, 'error during shutdown');
  };
  return {
    add: (stop) => void stops.push(stop),
    onDrain: (hook) => void drainHooks.push(hook),
    dependsOn: (name, reachable) => void dependencies.set(name, reachable),
    stop: () => (stopping ??= runStops()),
  };
}

/** The dependencies that do not say they are reachable within probeMs, asked together. */
async function unreachable(dependencies: Map<string, () => Promise<boolean>>, probeMs: number): Promise<string[]> {
  const answers = await Promise.all(
    [...dependencies].map(async ([name, reachable]) => {
      const answer = await Promise.race([
        reachable().catch(() => false),
        new Promise<false>((r) => setTimeout(() => r(false), probeMs).unref()),
      ]);
      return answer ? undefined : name;
    }),
  );
  return answers.filter((name): name is string => name !== undefined);
}

/** Runs the step for at most withinMs; past that it goes on unobserved (the process is about to exit). */
async function boundedQuietly(run: () => Promise<void>, withinMs: number, onFailure: () => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    run().catch(onFailure),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, withinMs);
      timer.unref();
    }),
  ]);
  clearTimeout(timer);
}
