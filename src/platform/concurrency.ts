// A bound on how many of one kind of work run at once, so that a burst (every session of a node reading its log
// after a restart) waits its turn instead of exhausting the connection pool.

export type Limited = <T>(work: () => Promise<T>) => Promise<T>;

/** Runs at most `limit` works at once; the others start in the order they came as slots free up. */
export function concurrencyLimit(limit: number): Limited {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async (work) => {
    if (running < limit) running++;
    // A finishing work hands its slot straight to the next in line, so no newcomer slips in between.
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
