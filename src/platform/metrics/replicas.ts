// Read replicas: where each routed read went, and each replica's state as its last health poll saw it.
import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from './registry.js';
import { ScrapeSources } from './scrape-sources.js';

export interface ReplicaState {
  name: string;
  inRotation: boolean;
  lagBytes: number;
  lagMs: number;
}

const sources = new ScrapeSources<{ states: () => ReplicaState[] }>();

export const routedReads = new Counter({
  name: 'platform_db_routed_reads_total',
  help: 'Reads that could go to a replica, by where they went: replica, or primary and why (no replica in rotation, none caught up with the caller, replica failed)',
  labelNames: ['target'] as const,
  registers: [metricsRegistry],
});

new Gauge({
  name: 'platform_db_replica_in_rotation',
  help: 'Whether a read replica takes reads (1) or is out of rotation for lag or failure (0)',
  labelNames: ['replica'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const { states } of sources.all) for (const s of states()) this.set({ replica: s.name }, s.inRotation ? 1 : 0);
  },
});

new Gauge({
  name: 'platform_db_replica_lag_bytes',
  help: 'WAL bytes the primary had written that a replica had not replayed, at the last poll',
  labelNames: ['replica'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const { states } of sources.all) for (const s of states()) this.set({ replica: s.name }, s.lagBytes);
  },
});

new Gauge({
  name: 'platform_db_replica_lag_seconds',
  help: 'Age of the oldest primary position a replica had not replayed, at the last poll',
  labelNames: ['replica'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const { states } of sources.all) for (const s of states()) this.set({ replica: s.name }, s.lagMs / 1000);
  },
});

/** Lists a replica set for the gauges; returns the removal, for when the set closes. */
export function watchReplicas(states: () => ReplicaState[]): () => void {
  return sources.add({ states });
}
