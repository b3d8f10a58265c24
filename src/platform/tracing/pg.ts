// SQL spans: every statement issued while a span is active becomes its child (statements of background loops with no
// span around them make none). The same wrapper carries the active span's traceparent to the outbox: before a
// statement that inserts into it, the connection's platform.traceparent setting is made the active one, and the
// outbox's trace_context column defaults to that setting, so every emit site records its producer unchanged.
import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { platformTracer, tracingOn } from './state.js';
import { activeTraceparent } from './traceparent.js';
import { traceContextStatement } from '../db/sql.js';

type QueryFn = (this: object, ...args: unknown[]) => unknown;
interface PgModule {
  Client: { prototype: { query: QueryFn } };
}

const wrapped = Symbol('tracedQuery');
const carried = Symbol('carriedTraceparent');
// Typed statements quote the name ("outbox"); hand-written ones may not.
const outboxInsert = /\binsert\s+into\s+"?outbox\b/i;

/** The span name: the statement's first keyword (SELECT, INSERT, WITH...), so names stay few. */
function operationOf(text: string): string {
  const m = /^\s*([A-Za-z]+)/.exec(text);
  return m ? m[1]!.toUpperCase() : 'SQL';
}

function textOf(config: unknown): string | undefined {
  if (typeof config === 'string') return config;
  const text = (config as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : undefined;
}

/** Queued on the same connection ahead of the statement (pg runs a connection's queries in order). */
function carryTraceContext(client: object & { [carried]?: string }, query: QueryFn): void {
  const wanted = activeTraceparent() ?? '';
  // A connection that never had it set reads NULL already.
  if ((client[carried] ?? '') === wanted) return;
  client[carried] = wanted;
  const settled = query.call(client, traceContextStatement(wanted)) as Promise<unknown>;
  settled.catch(() => undefined);
}

function finish(span: Span, err: unknown): void {
  if (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
  }
  span.end();
}

/** Wraps the query method of a pg module's Client (idempotent). */
export function traceStatements(pg: PgModule): void {
  const proto = pg.Client.prototype as { query: QueryFn & { [wrapped]?: true } };
  if (proto.query[wrapped]) return;
  const original = proto.query;
  const traced = function tracedQuery(this: object, ...args: unknown[]): unknown {
    if (!tracingOn()) return original.apply(this, args);
    const text = textOf(args[0]);
    if (text === undefined) return original.apply(this, args);
    if (outboxInsert.test(text)) carryTraceContext(this, original);
    const active = context.active();
    if (!trace.getSpan(active)) return original.apply(this, args);
    const span = platformTracer().startSpan(
      operationOf(text),
      {
        kind: SpanKind.CLIENT,
        attributes: { 'db.system.name': 'postgresql', 'db.operation.name': operationOf(text), 'db.query.text': text.slice(0, 2_000) },
      },
      active,
    );
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = function (this: unknown, err: unknown, ...rest: unknown[]) {
        finish(span, err);
        return (callback as (...a: unknown[]) => unknown).call(this, err, ...rest);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args) as { then?: unknown; once?: unknown } | undefined;
    if (result && typeof result.then === 'function') {
      (result as Promise<unknown>).then(
        () => finish(span, null),
        (err: unknown) => finish(span, err),
      );
    } else if (result && typeof result.once === 'function') {
      // A submittable (a cursor, a stream) reports its end by events.
      const events = result as { once(event: string, listener: (err?: unknown) => void): void };
      events.once('end', () => finish(span, null));
      events.once('error', (err) => finish(span, err));
    } else span.end();
    return result;
  } as QueryFn & { [wrapped]?: true };
  traced[wrapped] = true;
  proto.query = traced;
}
