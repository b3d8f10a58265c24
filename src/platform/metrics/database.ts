// PostgreSQL: connections of each pool (read at scrape time) and the time of every statement.
import { Gauge, Histogram } from 'prom-client';
import type pg from 'pg';
import { metricsRegistry } from './registry.js';
import { ScrapeSources } from './scrape-sources.js';

const pools = new ScrapeSources<{ name: string; pool: pg.Pool }>();

new Gauge({
  name: 'platform_db_pool_connections',
  help: 'Connections of a PostgreSQL pool: total open, idle, and requests waiting for one',
  labelNames: ['pool', 'state'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const { name, pool } of pools.all) {
      this.inc({ pool: name, state: 'total' }, pool.totalCount);
      this.inc({ pool: name, state: 'idle' }, pool.idleCount);
      this.inc({ pool: name, state: 'waiting' }, pool.waitingCount);
    }
  },
});

new Gauge({
  name: 'platform_db_pool_max_connections',
  help: 'The most connections a PostgreSQL pool opens',
  labelNames: ['pool'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const { name, pool } of pools.all) this.inc({ pool: name }, pool.options.max ?? 10);
  },
});

const queryDuration = new Histogram({
  name: 'platform_db_query_duration_seconds',
  help: 'Time of a statement from its being issued on a pooled connection to its result',
  labelNames: ['pool'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
  registers: [metricsRegistry],
});

type QueryFn = (...args: unknown[]) => unknown;

/**
 * Times every statement of the pool's connections (pool.query included: it runs on one of them) and lists the pool
 * for the connection gauges; returns the removal from that list, for when the pool ends.
 */
export function instrumentPool(pool: pg.Pool, name: string): () => void {
  const timer = queryDuration.labels({ pool: name });
  pool.on('connect', (client) => {
    (client as unknown as { query: QueryFn }).query = function timedQuery(this: object, ...args: unknown[]) {
      // The class's method, looked up on each call: a wrapper put on it later (a statement counter) still runs.
      const query = (Object.getPrototypeOf(this) as { query: QueryFn }).query;
      const start = performance.now();
      const end = () => timer.observe((performance.now() - start) / 1000);
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        // pg-pool's pool.query passes a callback.
        args[last] = function timedCallback(this: unknown, ...results: unknown[]) {
          end();
          return (callback as QueryFn).apply(this, results);
        };
        return query.apply(this, args);
      }
      const result = query.apply(this, args);
      if (result instanceof Promise) result.then(end, end);
      return result;
    };
  });
  return pools.add({ name, pool });
}
