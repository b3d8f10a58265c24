// Benchmark: what tracing costs. Off (the default) no wrapper is installed and each hook is one boolean test; this
// measures that test, then `select 1` round trips on one real PostgreSQL connection with no wrapper, with the wrapper
// switched off, with tracing on and no active span (background work), and under an active span (a SQL span made
// and batched to an in-memory exporter). The process's CPU time per statement is the figure: wall time on a shared
// machine mostly measures the neighbours. Medians of interleaved rounds. Run with `make bench-tracing`.
import { performance } from 'node:perf_hooks';
import { context, trace } from '@opentelemetry/api';
import { AlwaysOnSampler, InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import pg from 'pg';
import { startTracing } from '../../src/platform/tracing/sdk.js';
import { inConsumerSpan } from '../../src/platform/tracing/consumer.js';
import { platformTracer, setTracingOn, tracingOn } from '../../src/platform/tracing/state.js';
import { progress, runBenchmark, scratchInfra, table } from './report.js';

const STATEMENTS = Number(process.env.BENCH_TRACING_STATEMENTS ?? 2_000);
const ROUNDS = 7;
const HOOK_CALLS = 2_000_000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

type Query = (this: pg.Client, text: string) => Promise<unknown>;

interface Cost {
  wall: number;
  cpu: number;
}

/** Wall time and this process's CPU time (user + system) per statement, in microseconds. */
async function statementCost(client: pg.Client, inSpan: boolean, query: Query): Promise<Cost> {
  const run = async (): Promise<Cost> => {
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < STATEMENTS; i++) await query.call(client, 'select 1');
    const used = process.cpuUsage(cpu);
    return { wall: ((performance.now() - started) * 1000) / STATEMENTS, cpu: (used.user + used.system) / STATEMENTS };
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

await runBenchmark(async () => {
  const { databaseUrl } = await scratchInfra('tracing-bench-');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const off = offHookNanos();
    // The method as pg defines it, kept before tracing wraps it: "no wrapper" rounds call it directly, interleaved
    // with the others so that every case sees the same machine.
    const bareQuery = pg.Client.prototype.query as unknown as Query;
    const wrappedQuery: Query = function (this: pg.Client, text: string) {
      return this.query(text);
    };
    // Warm-up: the JIT and the connection settle before the first measured round.
    for (let i = 0; i < 5_000; i++) await client.query('select 1');
    const exporter = new InMemorySpanExporter();
    // Batched, as in production (an OTLP exporter behind the batch processor).
    const tracing = await startTracing({ sampler: new AlwaysOnSampler(), exporter });
    progress(`${ROUNDS} interleaved rounds of ${STATEMENTS} statements per case`);
    const bare: Cost[] = [];
    const offWrapped: Cost[] = [];
    const noSpan: Cost[] = [];
    const withSpan: Cost[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      setTracingOn(false);
      bare.push(await statementCost(client, false, bareQuery));
      offWrapped.push(await statementCost(client, false, wrappedQuery));
      setTracingOn(true);
      noSpan.push(await statementCost(client, false, wrappedQuery));
      withSpan.push(await statementCost(client, true, wrappedQuery));
      exporter.reset();
    }
    await tracing.shutdown();

    const base = { wall: median(bare.map((c) => c.wall)), cpu: median(bare.map((c) => c.cpu)) };
    const signed = (v: number) => `${v >= 0 ? '+' : ''}${v.toFixed(1)}`;
    const row = (label: string, costs: Cost[]) => {
      const wall = median(costs.map((c) => c.wall));
      const cpu = median(costs.map((c) => c.cpu));
      return [label, wall.toFixed(1), cpu.toFixed(1), signed(cpu - base.cpu)];
    };
    process.stdout.write(
      `\nTracing cost (${STATEMENTS} \`select 1\` per round on one connection, median of ${ROUNDS} rounds)\n\n` +
        table(
          ['case', 'wall µs/stmt', 'CPU µs/stmt', 'CPU vs none'],
          [
            row('tracing off: no wrapper installed (the default)', bare),
            row('wrapper installed, tracing switched off', offWrapped),
            row('tracing on, no active span', noSpan),
            row('tracing on, a SQL span per statement', withSpan),
          ],
        ) +
        `\n\nOff path of a hook (${HOOK_CALLS} calls, median of 3): tracingOn() test ${off.check.toFixed(2)} ns, ` +
        `inConsumerSpan ${off.consumer.toFixed(2)} ns per call\n`,
    );
  } finally {
    await client.end();
  }
  return 0;
});
