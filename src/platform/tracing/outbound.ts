// The span of an outbound HTTP call (a workspace webhook attempt, a bot webhook delivery), a child of the span
// active where it is made. No traceparent goes out: receivers are third parties, and their requests are signed
// with exactly the documented headers.
import { context, SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import { platformTracer, tracingOn } from './state.js';

export interface OutboundCall {
  span: Span | undefined;
  /** Ends the span with the response status, or with the failure. */
  end(status: number | null, err?: unknown): void;
}

export function startOutboundCall(method: string, url: URL | string): OutboundCall {
  if (!tracingOn()) return { span: undefined, end: () => undefined };
  const target = typeof url === 'string' ? (URL.parse(url) ?? new URL('invalid://unknown')) : url;
  const span = platformTracer().startSpan(
    `${method} ${target.host}`,
    {
      kind: SpanKind.CLIENT,
      attributes: { 'http.request.method': method, 'server.address': target.hostname, 'url.scheme': target.protocol.replace(':', '') },
    },
    context.active(),
  );
  return {
    span,
    end(status, err) {
      if (status !== null) span.setAttribute('http.response.status_code', status);
      if (err || status === null || status >= 400) {
        span.setStatus({ code: SpanStatusCode.ERROR, ...(err ? { message: err instanceof Error ? err.message : String(err) } : {}) });
      }
      span.end();
    },
  };
}
