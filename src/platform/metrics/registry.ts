// The process's one metrics registry. Metrics are recorded whether or not METRICS_PORT is set (an increment costs
// less than the branch that would skip it); they are only served by the operations listener.
import { collectDefaultMetrics, Registry } from 'prom-client';

export const metricsRegistry = new Registry();

let processMetricsOn = false;

/** Node's own metrics (CPU, memory, heap, event-loop delay, GC, handles), read at scrape time. Once per process. */
export function collectProcessMetrics(): void {
  if (processMetricsOn) return;
  processMetricsOn = true;
  collectDefaultMetrics({ register: metricsRegistry });
}
