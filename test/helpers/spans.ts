// Finding finished spans of the in-memory exporter: by name and trace, the server span of a trace, a span linked
// to another, the POST a span made.
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';

/** The span of that name in the trace. */
export function spanIn(spans: ReadableSpan[], name: string, traceId: string | null): ReadableSpan | undefined {
  return spans.find((s) => s.name === name && s.spanContext().traceId === traceId);
}

/** The server (request) span of the trace. */
export function serverSpanIn(spans: ReadableSpan[], traceId: string): ReadableSpan | undefined {
  return spans.find((s) => s.spanContext().traceId === traceId && s.kind === SpanKind.SERVER);
}

/** Whether the span links to the span with this id (in this trace, when given). */
export function linksTo(span: ReadableSpan, spanId: string, traceId?: string | null): boolean {
  return span.links.some((l) => l.context.spanId === spanId && (traceId === undefined || l.context.traceId === traceId));
}

/** The span of that name that links to the span with this id (in this trace, when given). */
export function linkedSpan(spans: ReadableSpan[], name: string, spanId: string, traceId?: string | null): ReadableSpan | undefined {
  return spans.find((s) => s.name === name && linksTo(s, spanId, traceId));
}

/** The client span, child of the parent, of an HTTP request with that method. */
export function httpChildOf(spans: ReadableSpan[], parent: ReadableSpan, method: string): ReadableSpan | undefined {
  return spans.find(
    (s) =>
      s.parentSpanContext?.spanId === parent.spanContext().spanId &&
      s.kind === SpanKind.CLIENT &&
      s.attributes['http.request.method'] === method,
  );
}
