// The outbox relay: how many events each drain published, and how old the oldest event still waiting is.
import { Gauge, Histogram } from 'prom-client';
import { sql as fragment } from 'kysely';
import type { SqlPool } from './db/sql.js';
import type { OutboxEntity } from './db/entities.js';
import { firstRow, typedQueries, type TablesOf } from './db/typed.js';
import { metricsRegistry } from './metrics/registry.js';
import { ScrapeSources } from './metrics/scrape-sources.js';

const databases = new ScrapeSources<SqlPool>();

// The partial index outbox_unpublished holds exactly the waiting rows, in id order.
const oldestWaiting = typedQueries<TablesOf<typeof OutboxEntity>>()
  .selectFrom('outbox')
  .select(fragment<number>`extract(epoch from now() - created_at)::float8`.as('age'))
  .where('published_at', 'is', null)
  .orderBy('id')
  .limit(1);

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
      lag = Math.max(lag, (await firstRow(sql, oldestWaiting))?.age ?? 0);
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
