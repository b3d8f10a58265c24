// Redis spans: every command issued while a span is active becomes its child (a worker's blocking pops and the
// relay's polls, with no span around them, make none). Only the command name is recorded, never its arguments.
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { Redis } from 'ioredis';
import { platformTracer, tracingOn } from './state.js';

type SendCommand = Redis['sendCommand'];
const wrapped = Symbol('tracedSend');

export function traceRedisCommands(): void {
  const proto = Redis.prototype as Redis & { sendCommand: SendCommand & { [wrapped]?: true } };
  if (proto.sendCommand[wrapped]) return;
  const original = proto.sendCommand;
  const traced = function tracedSend(this: Redis, ...args: Parameters<SendCommand>) {
    const active = context.active();
    if (!tracingOn() || !trace.getSpan(active)) return original.apply(this, args);
    const name = String(args[0].name).toUpperCase();
    const span = platformTracer().startSpan(
      name,
      { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'redis', 'db.operation.name': name } },
      active,
    );
    args[0].promise.then(
      () => span.end(),
      (err: unknown) => {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        span.end();
      },
    );
    return original.apply(this, args);
  } as SendCommand & { [wrapped]?: true };
  traced[wrapped] = true;
  proto.sendCommand = traced;
}
