// W3C traceparent text of a span context, and back: how a producer's span context is stored with an outbox row.
import { context, isSpanContextValid, trace, TraceFlags, type SpanContext } from '@opentelemetry/api';

const pattern = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

export function traceparentOf(span: SpanContext): string | null {
  if (!isSpanContextValid(span)) return null;
  return `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** The traceparent of the span active here, or null when none is. */
export function activeTraceparent(): string | null {
  const span = trace.getSpan(context.active());
  return span ? traceparentOf(span.spanContext()) : null;
}

export function spanContextOf(traceparent: unknown): SpanContext | null {
  if (typeof traceparent !== 'string') return null;
  const m = pattern.exec(traceparent);
  if (!m) return null;
  const parsed: SpanContext = { traceId: m[1]!, spanId: m[2]!, traceFlags: parseInt(m[3]!, 16) & TraceFlags.SAMPLED, isRemote: true };
  return isSpanContextValid(parsed) ? parsed : null;
}
