// HTTP requests of every listener, by operation id (the route when the spec names none) and status class.
import { Counter, Histogram } from 'prom-client';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { metricsRegistry } from './registry.js';

const requests = new Counter({
  name: 'platform_http_requests_total',
  help: 'HTTP requests answered, by listener, operation id (else route) and status class',
  labelNames: ['listener', 'operation', 'status_class'] as const,
  registers: [metricsRegistry],
});

const duration = new Histogram({
  name: 'platform_http_request_duration_seconds',
  help: 'Time from the request arriving to its response being sent, by listener and operation',
  labelNames: ['listener', 'operation'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

const statusClasses = ['1xx', '2xx', '3xx', '4xx', '5xx'];

interface Recorders {
  count: { inc(): void };
  time: { observe(seconds: number): void };
}

/** An onResponse hook for one listener. Unrouted requests share one label value, so paths never become labels. */
export function httpMetricsHook(listener: string) {
  // Bound children per operation and status class: a request costs a map lookup, not a hash of its label set.
  const recorders = new Map<string, Recorders>();
  const recordersOf = (operation: string, statusClass: string): Recorders => {
    const key = `${operation} ${statusClass}`;
    let r = recorders.get(key);
    if (!r) {
      r = { count: requests.labels({ listener, operation, status_class: statusClass }), time: duration.labels({ listener, operation }) };
      recorders.set(key, r);
    }
    return r;
  };
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const options = request.routeOptions;
    const operation =
      (options.schema as { operationId?: string } | undefined)?.operationId ?? (request.is404 ? 'unmatched' : (options.url ?? 'unmatched'));
    const statusClass = statusClasses[Math.floor(reply.statusCode / 100) - 1] ?? 'other';
    const r = recordersOf(operation, statusClass);
    r.count.inc();
    r.time.observe(reply.elapsedTime / 1000);
    countRateLimitRefusal(listener, reply.statusCode);
  };
}

const rateLimitRefusals = new Counter({
  name: 'platform_rate_limit_refusals_total',
  help: 'Requests refused by a rate limit (answered 429), by interface',
  labelNames: ['interface'] as const,
  registers: [metricsRegistry],
});

/** Every 429 of the platform is a rate limit's refusal (the gates and the send limits are the only ones to answer it). */
export function countRateLimitRefusal(listener: string, statusCode: number): void {
  if (statusCode === 429) rateLimitRefusals.inc({ interface: listener });
}
