// Bot updates stored and not yet fetched or delivered, read at scrape time from what the composition root registers.
import { Gauge } from 'prom-client';
import { metricsRegistry } from './registry.js';
import { ScrapeSources } from './scrape-sources.js';

const counters = new ScrapeSources<() => Promise<number>>();

new Gauge({
  name: 'platform_bot_updates_pending',
  help: 'Bot updates waiting for getUpdates or a webhook delivery (one database for every process)',
  registers: [metricsRegistry],
  aggregator: 'max',
  async collect() {
    const values = await Promise.all(counters.all.map((count) => count()));
    this.set(Math.max(0, ...values));
  },
});

/** Registers how to count pending bot updates; returns the removal. */
export function watchBotUpdates(count: () => Promise<number>): () => void {
  return counters.add(count);
}
