// Whether tracing runs in this process. Off, every hook returns at once: the request id stays the platform's own and
// no span, context or wrapper is made.
import { trace, type Tracer } from '@opentelemetry/api';

let enabled = false;

export function tracingOn(): boolean {
  return enabled;
}

export function setTracingOn(value: boolean): void {
  enabled = value;
}

/** The platform's tracer (the global provider's, registered by startTracing). */
export function platformTracer(): Tracer {
  return trace.getTracer('chat-platform');
}
