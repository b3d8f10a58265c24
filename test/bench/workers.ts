// Benchmark section: the scale from WORKERS=1 to WORKERS=2. Two real servers (node dist/src/main.js, chat listener
// only) run side by side on the benchmark's PostgreSQL and Redis, one with each setting; the same load is sent to
// one, then the other, round by round, so both see the same machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../src/platform/infra/free-port.js';
import type { TestAccount, TestPlatform } from '../support/platform.js';
import { ms, progress, rps, table } from './report.js';
import { fmtRatio, fmtRps, type GoalRow } from './results.js';
import { checkPaired, measurePaired, type PairedCase } from './rounds.js';
import type { HttpTarget, LoadGenerator } from './tasks.js';

const ROUNDS = 3;
const PER_ROUND = 2_000;
const WARMUP = 500;
const CONCURRENCY = 32;
const RUN_CAP_MS = 45_000;

interface Server {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

async function startServer(p: TestPlatform, workers: number): Promise<Server> {
  const port = await freePort();
  const main = fileURLToPath(new URL('../../src/main.js', import.meta.url));
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      WORKERS: String(workers),
      SERVICES: 'chat',
      HOST: '127.0.0.1',
      CHAT_PORT: String(port),
      DATABASE_URL: p.databaseUrl,
      REDIS_URL: p.redisUrl,
      LOG_LEVEL: 'warn',
      SEND_RATE_LIMIT_PER_MINUTE: '1000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the WORKERS=${workers} server exited with code ${child.exitCode}`);
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`the WORKERS=${workers} server was not ready within 60s`);
    await sleep(200);
  }
  return {
    url,
    child,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(15_000)]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

export async function benchWorkers(
  p: TestPlatform,
  sender: TestAccount,
  rooms: string[],
  drainRoom: string,
  load: LoadGenerator,
): Promise<{ lines: string[]; failures: string[]; goals: GoalRow[] }> {
  const failures: string[] = [];
  progress('workers: starting a WORKERS=1 and a WORKERS=2 server (node dist/src/main.js)');
  const one = await startServer(p, 1);
  let two: Server | undefined;
  try {
    two = await startServer(p, 2);
    const auth = { authorization: `Bearer ${sender.token}` };
    const sendTargets = (base: string): HttpTarget[] =>
      rooms.map((id) => ({
        url: `${base}/api/v1/rooms/${id}/messages`,
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'workers benchmark message' }),
      }));
    const pageTargets = (base: string): HttpTarget[] =>
      rooms.map((id) => ({ url: `${base}/api/v1/rooms/${id}/messages?limit=20`, method: 'GET', headers: auth }));
    const common = { concurrency: CONCURRENCY, requests: PER_ROUND, warmup: 0, capMs: RUN_CAP_MS };
    // "stack" is WORKERS=2 and "base" WORKERS=1, so the paired ratio is the scale.
    const cases: PairedCase[] = [
      {
        label: `send, ${CONCURRENCY} rooms`,
        stack: { kind: 'http', targets: sendTargets(two.url), expect: 201, ...common },
        base: { kind: 'http', targets: sendTargets(one.url), expect: 201, ...common },
      },
      {
        label: `history page of 20, ${CONCURRENCY} rooms`,
        stack: { kind: 'http', targets: pageTargets(two.url), expect: 200, ...common },
        base: { kind: 'http', targets: pageTargets(one.url), expect: 200, ...common },
      },
    ];
    const results = await measurePaired(load, cases, {
      rounds: ROUNDS,
      perRound: PER_ROUND,
      warmup: WARMUP,
      onRound: (r) =>
        progress(`workers: round ${r + 1}/${ROUNDS}, ${PER_ROUND} requests per case and server at concurrency ${CONCURRENCY}`),
      between: async () => {
        // Let the relay publish what the sends wrote, so one run's backlog does not load the next.
        for (let i = 0; i < 600; i++) {
          const { rows } = await p.db.query<{ n: string }>('select count(*) as n from outbox where published_at is null');
          if (Number(rows[0]!.n) === 0) return;
          if (i % 10 === 0)
            await fetch(`${p.chatUrl}/api/v1/rooms/${drainRoom}/messages`, {
              method: 'POST',
              headers: { ...auth, 'content-type': 'application/json' },
              body: '{"text":"drain"}',
            });
          await sleep(50);
        }
      },
    });
    for (const r of results) checkPaired(r, 'workers', failures);
    const lines = [
      `6. WORKERS  the same requests against a server started with WORKERS=1 and one with WORKERS=2 (node:cluster, one port), side by side`,
      `   concurrency ${CONCURRENCY}; ${WARMUP} warm-up requests per case and server, then ${ROUNDS} interleaved rounds of ${PER_ROUND}; scale = WORKERS=2 / WORKERS=1 throughput.`,
      '   The machine is shared: PostgreSQL, Redis, the load generator and this process take their part of the same cores.',
      '',
      table(
        ['case', 'WORKERS=1 req/s', 'WORKERS=2 req/s', 'scale', 'W=1 p50', 'W=2 p50', 'W=1 p99', 'W=2 p99', 'errors'],
        results.map((r) => [
          r.label,
          rps(r.base.throughput),
          rps(r.stack.throughput),
          `${r.throughputRatio.toFixed(2)}x`,
          ms(r.base.p50),
          ms(r.stack.p50),
          ms(r.base.p99),
          ms(r.stack.p99),
          String(r.stack.errors + r.base.errors),
        ]),
      ),
    ];
    const goals: GoalRow[] = results.map((r) => ({
      name: `scale WORKERS=1 -> 2, ${r.label}`,
      ours: fmtRps(r.stack.throughput),
      baseline: fmtRps(r.base.throughput),
      ratio: fmtRatio(r.throughputRatio),
      goal: 'reported',
      met: null,
      values: { workers2: r.stack.throughput, workers1: r.base.throughput, scale: r.throughputRatio },
    }));
    return { lines, failures, goals };
  } finally {
    await two?.stop();
    await one.stop();
  }
}
