// The span of one HTTP request: started when Fastify names the request (its trace id becomes the request id), named
// by the operation id once the route is known, made the active span for the hooks and the handler, ended with the
// response. A W3C traceparent header from the caller makes it a child of the caller's span.
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { platformTracer } from './state.js';

const requestSpan = Symbol('requestSpan');
type Carrier = IncomingMessage & { [requestSpan]?: Span };

/** Starts the request's span and returns its trace id, the request id while tracing is on. */
export function startRequestSpan(req: IncomingMessage, listener: string): string {
  const parent = propagation.extract(ROOT_CONTEXT, req.headers);
  const span = platformTracer().startSpan(
    `${req.method ?? 'HTTP'}`,
    { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method ?? '', listener } },
    parent,
  );
  (req as Carrier)[requestSpan] = span;
  return span.spanContext().traceId;
}

function spanOf(request: FastifyRequest): Span | undefined {
  return (request.raw as Carrier)[requestSpan];
}

/** The operation id of the matched route (the route itself when the spec names none), as the metrics name it. */
function operationOf(request: FastifyRequest): { operation: string; route: string | undefined } {
  const options = request.routeOptions;
  const route = request.is404 ? undefined : options.url;
  return { operation: (options.schema as { operationId?: string } | undefined)?.operationId ?? route ?? 'unmatched', route };
}

/** onRequest (first of the hooks): names the span and makes it active for the hooks that follow. */
export function enterRequestSpan(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const span = spanOf(request);
  if (!span) return done();
  const { operation, route } = operationOf(request);
  span.updateName(operation);
  if (route) span.setAttribute('http.route', route);
  context.with(trace.setSpan(ROOT_CONTEXT, span), done);
}

/** preHandler: the body has been read on the socket's own async context, so the span is made active again. */
export function resumeRequestSpan(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const span = spanOf(request);
  if (!span) return done();
  context.with(trace.setSpan(ROOT_CONTEXT, span), done);
}

/** onResponse and onRequestAbort: the status, then the end. */
export function endRequestSpan(request: FastifyRequest, reply: FastifyReply | undefined): void {
  const span = spanOf(request);
  if (!span) return;
  (request.raw as Carrier)[requestSpan] = undefined;
  if (reply) {
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
  } else span.setStatus({ code: SpanStatusCode.ERROR, message: 'request aborted' });
  span.end();
}
