// Starts the OpenTelemetry trace SDK for this process: the provider with the configured sampler and exporter, the
// AsyncLocalStorage context manager, the W3C propagator, and the platform's own instrumentation (pg, ioredis). The
// instrumentation wraps the libraries' prototypes, so it holds for connections made before or after the start.
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type Sampler,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import pg from 'pg';
import { maxLinks } from './consumer.js';
import { traceStatements } from './pg.js';
import { traceRedisCommands } from './redis.js';
import { setTracingOn } from './state.js';
import { tracingSettings } from './settings.js';
import { mikroOrmPg } from './mikro-orm-pg.js';

export interface Tracing {
  /** Exports what is still buffered and stops tracing. */
  shutdown(): Promise<void>;
}

export interface TracingSetup {
  sampler: Sampler;
  /** Where finished spans go; batched unless `immediate` (a test's in-memory exporter sees each span as it ends). */
  exporter: SpanExporter;
  immediate?: boolean;
}

export async function startTracing(setup: TracingSetup): Promise<Tracing> {
  const processor: SpanProcessor = setup.immediate
    ? new SimpleSpanProcessor({ exporter: setup.exporter })
    : new BatchSpanProcessor({ exporter: setup.exporter });
  // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES (the env detector) override the default name.
  const resource = resourceFromAttributes({ 'service.name': 'chat-platform' }).merge(detectResources({ detectors: [envDetector] }));
  const provider = new TracerProvider({
    resource,
    sampler: setup.sampler,
    spanProcessors: [processor],
    spanLimits: { linkCountLimit: maxLinks },
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }));
  trace.setGlobalTracerProvider(provider);
  traceStatements(pg as never);
  const ormPg = await mikroOrmPg();
  if (ormPg) traceStatements(ormPg as never);
  traceRedisCommands();
  setTracingOn(true);
  return {
    async shutdown() {
      setTracingOn(false);
      await provider.shutdown();
      trace.disable();
      propagation.disable();
      context.disable();
    },
  };
}

/** Tracing as the OTEL_* variables configure it, or null when they leave it off. */
export async function startTracingFromEnvironment(env: NodeJS.ProcessEnv = process.env): Promise<Tracing | null> {
  const settings = tracingSettings(env);
  if (!settings) return null;
  // The OTLP exporter reads OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT, _HEADERS, _TIMEOUT and _COMPRESSION itself.
  const exporter = settings.exporter === 'otlp' ? new OTLPTraceExporter() : new ConsoleSpanExporter();
  return startTracing({ sampler: settings.sampler, exporter });
}
