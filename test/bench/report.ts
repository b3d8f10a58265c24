// Formatting and process plumbing shared by the benchmark scripts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { migrate, openOrm } from '../../src/platform/db/orm.js';
import { startEmbeddedPostgres } from '../../src/platform/infra/embedded-postgres.js';
import { startLocalRedis } from '../../src/platform/infra/local-redis.js';

export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
export const ms = (v: number) => v.toFixed(v < 10 ? 3 : 1);
export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
export const rps = (v: number) => v.toFixed(0);

const t0 = performance.now();
export const elapsed = () => `${((performance.now() - t0) / 1000).toFixed(1)}s`;
export const progress = (line: string) => process.stderr.write(`[bench ${elapsed()}] ${line}\n`);

/** Cleanup steps run in reverse order, once, at the end or on SIGINT/SIGTERM. */
export const cleanups: Array<() => Promise<void>> = [];
let cleaned = false;
export async function cleanup(): Promise<void> {
  if (cleaned) return;
  cleaned = true;
  for (const fn of cleanups.reverse()) {
    try {
      await fn();
    } catch (err) {
      process.stderr.write(`cleanup: ${String(err)}\n`);
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void cleanup().finally(() => process.exit(130));
  });
}

/**
 * A temporary folder with an embedded PostgreSQL (migrated) and a redis-server, removed at cleanup; the test
 * platform helpers find them through TEST_DATABASE_URL and TEST_REDIS_URL.
 */
export async function scratchInfra(prefix: string): Promise<{ databaseUrl: string; redisUrl: string }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  progress(`starting embedded PostgreSQL and redis-server in ${dir}`);
  const database = await startEmbeddedPostgres(dir);
  cleanups.push(() => database.stop());
  const redis = await startLocalRedis(dir);
  cleanups.push(() => redis.stop());
  process.env.TEST_DATABASE_URL = database.url;
  process.env.TEST_REDIS_URL = redis.url;
  const orm = await openOrm({ databaseUrl: database.url });
  try {
    await migrate(orm);
  } finally {
    await orm.close();
  }
  return { databaseUrl: database.url, redisUrl: redis.url };
}

/** Runs a benchmark's main, cleans up whatever it started, and exits with its code (1 when it threw). */
export async function runBenchmark(main: () => Promise<number>): Promise<never> {
  let code = 1;
  try {
    code = await main();
  } catch (err) {
    process.stderr.write(`benchmark failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  } finally {
    progress('stopping the platform, redis-server and PostgreSQL; removing the temporary folder');
    await cleanup();
  }
  process.exit(code);
}
