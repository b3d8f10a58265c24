// The span of work that consumes outbox events (a realtime delivery, bot updates, a webhook attempt): a new trace,
// not a child, since one batch serves many producers; it links to each producer's span context instead.
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Link } from '@opentelemetry/api';
import { platformTracer, tracingOn } from './state.js';
import { spanContextOf } from './traceparent.js';

/**
 * Links per span, at most: a drain batch holds up to 500 events, and its consumer's span links every producer (the
 * tracer provider's link limit is raised to match; its default of 128 would drop the rest of a busy batch).
 */
export const maxLinks = 500;

function linksOf(traceparents: Iterable<unknown>): Link[] {
  const links: Link[] = [];
  const seen = new Set<string>();
  for (const tp of traceparents) {
    const span = spanContextOf(tp);
    if (!span || seen.has(span.spanId)) continue;
    seen.add(span.spanId);
    links.push({ context: span });
    if (links.length === maxLinks) break;
  }
  return links;
}

/** Runs `work` in a consumer span linked to the producers' traceparents (the work alone when tracing is off). */
export function inConsumerSpan<T>(name: string, traceparents: Iterable<unknown>, attributes: Attributes, work: () => T): T {
  if (!tracingOn()) return work();
  const span = platformTracer().startSpan(
    name,
    { kind: SpanKind.CONSUMER, root: true, links: linksOf(traceparents), attributes },
    ROOT_CONTEXT,
  );
  const fail = (err: unknown) => {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
  };
  let result: T;
  try {
    result = context.with(trace.setSpan(context.active(), span), work);
  } catch (err) {
    fail(err);
    span.end();
    throw err;
  }
  if (result instanceof Promise) {
    return result.then(
      (value) => {
        span.end();
        return value;
      },
      (err: unknown) => {
        fail(err);
        span.end();
        throw err;
      },
    ) as T;
  }
  span.end();
  return result;
}
