// The span of an outbound HTTP call (a workspace webhook attempt, a bot webhook delivery), a child of the span
// active where it is made; the W3C traceparent goes out with it so the receiver may continue the trace.
import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { platformTracer, tracingOn } from './state.js';

export interface OutboundCall {
  span: Span | undefined;
  /** traceparent (and tracestate) headers to send, none when tracing is off. */
  headers: Record<string, string>;
  /** Ends the span with the response status, or with the failure. */
  end(status: number | null, err?: unknown): void;
}

export function startOutboundCall(method: string, url: URL | string): OutboundCall {
  if (!tracingOn()) return { span: undefined, headers: {}, end: () => undefined };
  const target = typeof url === 'string' ? new URL(url) : url;
  const span = platformTracer().startSpan(
    `${method} ${target.host}`,
    { kind: SpanKind.CLIENT, attributes: { 'http.request.method': method, 'server.address': target.hostname, 'url.scheme': target.protocol.replace(':', '') } },
    context.active(),
  );
  const headers: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), headers);
  return {
    span,
    headers,
    end(status, err) {
      if (status !== null) span.setAttribute('http.response.status_code', status);
      if (err || status === null || status >= 400) {
        span.setStatus({ code: SpanStatusCode.ERROR, ...(err ? { message: (err as Error).message } : {}) });
      }
      span.end();
    },
  };
}
