// Benchmark: what tracing costs. Off (the default) no wrapper is installed and each hook is one boolean test; this
// measures that test per request against a bare statement, then the wrapped pg statement once tracing is on, with
// no span active (background work) and under an active span (a SQL span made and exported in memory). One real
// PostgreSQL, one connection, `select 1` round trips; medians of several rounds. Run with `make bench-tracing`.
import { performance } from 'node:perf_hooks';
import { context, trace } from '@opentelemetry/api';
import { AlwaysOnSampler, InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import pg from 'pg';
import { startTracing } from '../../src/platform/tracing/sdk.js';
import { inConsumerSpan } from '../../src/platform/tracing/consumer.js';
import { platformTracer, tracingOn } from '../../src/platform/tracing/state.js';
import { progress, runBenchmark, scratchInfra, table } from './report.js';

const STATEMENTS = Number(process.env.BENCH_TRACING_STATEMENTS ?? 3_000);
const ROUNDS = 5;
const HOOK_CALLS = 2_000_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function statementMicros(client: pg.Client, inSpan: boolean): Promise<number> {
  const run = async () => {
    const started = performance.now();
    for (let i = 0; i < STATEMENTS; i++) await client.query('select 1');
    return ((performance.now() - started) * 1000) / STATEMENTS;
  };
  if (!inSpan) return run();
  const span = platformTracer().startSpan('bench');
  try {
    return await context.with(trace.setSpan(context.active(), span), run);
  } finally {
    span.end();
  }
}

/** Nanoseconds per call of the off path of a hook, beyond the bare work. */
function offHookNanos(): { check: number; consumer: number } {
  let sink = 0;
  const work = () => {
    sink++;
    return sink;
  };
  const time = (fn: () => void) => {
    const started = performance.now();
    for (let i = 0; i < HOOK_CALLS; i++) fn();
    return ((performance.now() - started) * 1e6) / HOOK_CALLS;
  };
  const bare = median([0, 1, 2].map(() => time(work)));
  const check = median([0, 1, 2].map(() => time(() => (tracingOn() ? 0 : work()))));
  const consumer = median([0, 1, 2].map(() => time(() => inConsumerSpan('bench', [], {}, work))));
  if (sink < 0) throw new Error('unreachable');
  return { check: Math.max(0, check - bare), consumer: Math.max(0, consumer - bare) };
}

runBenchmark(async () => {
  const { databaseUrl } = await scratchInfra('tracing-bench-');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const off = offHookNanos();
    progress(`off: ${ROUNDS} rounds of ${STATEMENTS} statements`);
    for (let i = 0; i < 300; i++) await client.query('select 1');
    const untraced: number[] = [];
    for (let r = 0; r < ROUNDS; r++) untraced.push(await statementMicros(client, false));

    const exporter = new InMemorySpanExporter();
    const tracing = await startTracing({ sampler: new AlwaysOnSampler(), exporter, immediate: true });
    progress(`on: ${ROUNDS} rounds of ${STATEMENTS} statements without and with an active span`);
    const noSpan: number[] = [];
    const withSpan: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      noSpan.push(await statementMicros(client, false));
      withSpan.push(await statementMicros(client, true));
      exporter.reset();
    }
    await tracing.shutdown();

    const base = median(untraced);
    const row = (label: string, v: number) => [label, v.toFixed(1), `${(v - base >= 0 ? '+' : '')}${(v - base).toFixed(1)}`];
    process.stdout.write(
      `\nTracing cost (${STATEMENTS} \`select 1\` per round, median of ${ROUNDS})\n\n` +
        table(['case', 'µs per statement', 'vs off'], [
          row('tracing off (no wrapper installed)', base),
          row('tracing on, no active span', median(noSpan)),
          row('tracing on, SQL span per statement', median(withSpan)),
        ]) +
        `\n\nOff path of a hook (${HOOK_CALLS} calls, median of 3): tracingOn() test ${off.check.toFixed(2)} ns, ` +
        `inConsumerSpan ${off.consumer.toFixed(2)} ns per call\n`,
    );
  } finally {
    await client.end();
  }
  return 0;
});
