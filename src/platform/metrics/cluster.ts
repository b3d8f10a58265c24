// WORKERS > 1: the primary serves the operations port and answers a scrape with every worker's metrics aggregated
// (prom-client's AggregatorRegistry over the cluster's IPC channel). Counters and histograms are summed; gauges that
// read one shared database or Redis are declared with aggregator max, so N workers do not report N times the value.
import { AggregatorRegistry, type PrometheusContentType } from 'prom-client';
import { metricsRegistry } from './registry.js';

let aggregator: AggregatorRegistry<PrometheusContentType> | undefined;

/** In a worker: answer the primary's scrape requests with this process's registry. */
export function answerClusterScrapes(): void {
  AggregatorRegistry.setRegistries([metricsRegistry]);
  // Constructing one installs the worker's listener for the primary's requests.
  aggregator ??= new AggregatorRegistry();
}

/** In the primary: every connected worker's metrics, aggregated. */
export async function clusterExposition(): Promise<{ contentType: string; body: string }> {
  aggregator ??= new AggregatorRegistry();
  return { contentType: aggregator.contentType, body: await aggregator.clusterMetrics() };
}

/** In a single process: this process's registry. */
export async function processExposition(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}
