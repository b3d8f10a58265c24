// Gauges read at scrape time from whatever registered itself (a pool, a queue, the realtime gateway), so hot paths
// pay nothing for them. Several platforms may run in one process (tests): each registers its own and removes it
// when it stops.

/** A set of sources a collector reads at scrape time; add() returns the removal. */
export class ScrapeSources<T> {
  private readonly sources = new Set<T>();

  add(source: T): () => void {
    this.sources.add(source);
    return () => void this.sources.delete(source);
  }

  get all(): readonly T[] {
    return [...this.sources];
  }
}
