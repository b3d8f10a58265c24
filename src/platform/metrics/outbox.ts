// The outbox relay: how many events each drain published, and how old the oldest event still waiting is.
import { Gauge, Histogram } from 'prom-client';
import type { SqlPool } from '../db/sql.js';
import { metricsRegistry } from './registry.js';
import { ScrapeSources } from './scrape-sources.js';

const databases = new ScrapeSources<SqlPool>();

const drainSize = new Histogram({
  name: 'platform_outbox_drain_events',
  help: 'Events published by one outbox drain (empty drains included)',
  buckets: [0, 1, 2, 5, 10, 25, 50, 100, 250, 500],
  registers: [metricsRegistry],
});

new Gauge({
  name: 'platform_outbox_lag_seconds',
  help: 'Age of the oldest outbox event not yet published (0 when none waits); the same database for every process',
  registers: [metricsRegistry],
  // One database behind every worker: the workers' values are the same reading, not parts of a sum.
  aggregator: 'max',
  async collect() {
    let lag = 0;
    for (const sql of databases.all) {
      // The partial index outbox_unpublished holds exactly the waiting rows, in id order.
      const { rows } = await sql.query<{ age: number | null }>(
        'select extract(epoch from now() - created_at)::float8 as age from outbox where published_at is null order by id limit 1',
      );
      lag = Math.max(lag, rows[0]?.age ?? 0);
    }
    this.set(lag);
  },
});

/** Lists a database whose outbox the lag gauge reads at scrape time; returns the removal. */
export function watchOutbox(sql: SqlPool): () => void {
  return databases.add(sql);
}

/** Records one drain's size (called by the relay). */
export function observeOutboxDrain(published: number): void {
  drainSize.observe(published);
}
