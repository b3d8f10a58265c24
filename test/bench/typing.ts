// Benchmark: typing notices. Two chat nodes as separate processes (dist/src/main.js, SERVICES=chat) on one embedded
// PostgreSQL and redis-server; one room of 200 members, each with a STOMP socket on /user/queue/ephemeral (half on
// each node); members take turns sending POST /rooms/{id}/typing through node A at 100 notices per second. Prints
// p50/p99 from the send to each other member's receipt (goal p99 <= 50 ms) beside a baseline (a bare Redis PUBLISH
// to a subscriber in this process), checks every notice reached all 199 others, and reads PostgreSQL's tuple
// counters (pg_stat_database) before and after: typing writes no row (goal: 0 inserted, updated or deleted), beside
// an idle period of the same length as baseline. Run with `make bench-typing` (node dist/test/bench/typing.js).
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import type WebSocket from 'ws';
import { call, startTestPlatform } from '../support/platform.js';
import { cleanups, ms, progress, runBenchmark, scratchInfra, table } from './report.js';
import { fmtMs, loadAtStart, loadNow, writeSection, type GoalRow } from './results.js';
import { connectMember } from './stomp-member.js';

const MEMBERS = Number(process.env.BENCH_TYPING_MEMBERS ?? 200);
const PER_SECOND = Number(process.env.BENCH_TYPING_PER_SECOND ?? 100);
const SECONDS = Number(process.env.BENCH_TYPING_SECONDS ?? 10);
const WARMUP_SECONDS = 2;
const GOAL_P99_MS = 50;
// Each member sends every MEMBERS / PER_SECOND s (2 s at the defaults, exactly the production window): the nodes
// run with a window below that so that scheduling jitter never turns a notice into a 429.
const INTERVAL_MS = Math.max(500, Math.floor((MEMBERS / PER_SECOND) * 1000 * 0.75));

const mainJs = join(dirname(fileURLToPath(import.meta.url)), '../../src/main.js');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

async function startNode(name: string, databaseUrl: string, redisUrl: string): Promise<string> {
  const port = await freePort();
  const child = spawn(process.execPath, [mainJs], {
    env: {
      ...process.env,
      SERVICES: 'chat',
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      CHAT_PORT: String(port),
      LOG_LEVEL: 'warn',
      INLINE_MEMBERS_MAX: String(MEMBERS),
      REALTIME_TYPING_INTERVAL_MS: String(INTERVAL_MS),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  cleanups.push(async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`node ${name} exited with ${child.exitCode}`);
    if (
      await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return url;
    await sleep(100);
  }
  throw new Error(`node ${name} did not become ready`);
}

/** A string field of a flat JSON body the server wrote (no escapes in ids and timestamps). */
function field(body: string, name: string): string {
  const start = body.indexOf(`"${name}":"`) + name.length + 4;
  return body.slice(start, body.indexOf('"', start));
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

interface TupleCounters {
  inserted: number;
  updated: number;
  deleted: number;
  commits: number;
}

/** The database's counters after the statistics of every backend have been flushed (they flush within a second). */
async function counters(db: pg.Pool): Promise<TupleCounters> {
  await sleep(1_500);
  const { rows } = await db.query<{ ins: string; upd: string; del: string; xact: string }>(
    `select tup_inserted as ins, tup_updated as upd, tup_deleted as del, xact_commit as xact
       from pg_stat_database where datname = current_database()`,
  );
  const r = rows[0]!;
  return { inserted: Number(r.ins), updated: Number(r.upd), deleted: Number(r.del), commits: Number(r.xact) };
}

const delta = (a: TupleCounters, b: TupleCounters): TupleCounters => ({
  inserted: b.inserted - a.inserted,
  updated: b.updated - a.updated,
  deleted: b.deleted - a.deleted,
  commits: b.commits - a.commits,
});

async function main(): Promise<number> {
  const { databaseUrl, redisUrl } = await scratchInfra('typing-bench-');
  const control = await startTestPlatform({ services: [] });
  cleanups.push(() => control.stop());
  const stats = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  cleanups.push(() => stats.end());
  progress('starting two chat nodes');
  const [a, b] = [await startNode('A', databaseUrl, redisUrl), await startNode('B', databaseUrl, redisUrl)];

  progress(`registering ${MEMBERS} accounts in one room`);
  const tenant = await control.tenant();
  const accounts: Array<{ id: string; token: string }> = [];
  for (let i = 0; i < MEMBERS; i++) accounts.push(await tenant.account());
  const created = await call(a, 'POST', '/api/v1/rooms', {
    token: accounts[0]!.token,
    body: { type: 'GROUP', name: 'Typing bench', memberIds: accounts.slice(1).map((m) => m.id) },
  });
  if (created.status !== 201) throw new Error(`create room: HTTP ${created.status} ${JSON.stringify(created.body)}`);
  const roomId = created.body.data.id as string;

  // Receipts keyed by `${accountId} ${expiresAt}`, the pair that names one notice.
  const receipts = new Map<string, number[]>();
  // Wall-clock ms from the node's publish (expiresAt - ttlMs, the node's Date.now()) to each receipt.
  const fromPublish: number[] = [];
  const sockets: WebSocket[] = [];
  let measuring = false;
  progress(`connecting ${MEMBERS} sockets (half to each node)`);
  for (let i = 0; i < MEMBERS; i += 25) {
    sockets.push(
      ...(await Promise.all(
        accounts.slice(i, i + 25).map((acc, k) =>
          connectMember((i + k) % 2 === 0 ? a : b, acc.token, '/user/queue/ephemeral', (body, at) => {
            // Two fields read by position rather than JSON.parse: 20,000 bodies a second in one process.
            if (!body.startsWith('{"topic":"typing"')) return;
            const expiresAt = field(body, 'expiresAt');
            const key = `${field(body, 'accountId')} ${expiresAt}`;
            if (measuring) fromPublish.push(Date.now() - (Date.parse(expiresAt) - 6_000));
            const list = receipts.get(key);
            if (list) list.push(at);
            else receipts.set(key, [at]);
          }),
        ),
      )),
    );
  }
  cleanups.push(async () => sockets.forEach((s) => s.terminate()));
  await sleep(1_000);

  /** Sends PER_SECOND notices per second for `seconds`, members in turn; returns each notice's send time. */
  const run = async (seconds: number): Promise<{ sent: Array<{ key: string; at: number }>; refused: Map<number, number> }> => {
    const total = seconds * PER_SECOND;
    const gap = 1000 / PER_SECOND;
    const sent: Array<{ key: string; at: number }> = [];
    const refused = new Map<number, number>();
    const start = performance.now();
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < total; i++) {
      const due = start + i * gap;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const sender = accounts[i % MEMBERS]!;
      const at = performance.now();
      inFlight.push(
        call(a, 'POST', `/api/v1/rooms/${roomId}/typing`, { token: sender.token }).then((res) => {
          if (res.status === 200) sent.push({ key: `${sender.id} ${res.body.data.expiresAt as string}`, at });
          else refused.set(res.status, (refused.get(res.status) ?? 0) + 1);
        }),
      );
    }
    await Promise.all(inFlight);
    return { sent, refused };
  };

  progress(`warm-up: ${WARMUP_SECONDS} s`);
  await run(WARMUP_SECONDS);
  await sleep(INTERVAL_MS);

  progress('baseline: PostgreSQL counters over an idle period');
  const idleStart = await counters(stats);
  await sleep(SECONDS * 1000);
  const idle = delta(idleStart, await counters(stats));

  measuring = true;
  progress(`measuring: ${PER_SECOND} notices/s for ${SECONDS} s into a room of ${MEMBERS}`);
  receipts.clear();
  const before = await counters(stats);
  const { sent, refused: refusedBy } = await run(SECONDS);
  const refused = [...refusedBy.values()].reduce((x, y) => x + y, 0);
  await sleep(1_000);
  measuring = false;
  const during = delta(before, await counters(stats));
  const latencies: number[] = [];
  let missing = 0;
  for (const s of sent) {
    const got = receipts.get(s.key) ?? [];
    missing += MEMBERS - 1 - got.length;
    for (const at of got) latencies.push(at - s.at);
  }

  progress('baseline: Redis PUBLISH to a subscriber');
  const pub = new Redis(redisUrl);
  const sub = new Redis(redisUrl);
  cleanups.push(async () => {
    pub.disconnect();
    sub.disconnect();
  });
  const base: number[] = [];
  sub.on('message', (_c: string, m: string) => base.push(performance.now() - Number(m)));
  await sub.subscribe('bench:baseline');
  for (let k = 0; k < SECONDS * PER_SECOND; k++) {
    await pub.publish('bench:baseline', String(performance.now()));
    await sleep(1000 / PER_SECOND);
  }
  await sleep(200);

  const sorted = latencies.sort((x, y) => x - y);
  const publishSorted = fromPublish.sort((x, y) => x - y);
  const baseSorted = base.sort((x, y) => x - y);
  const p99 = percentile(sorted, 99);
  const writes = during.inserted + during.updated + during.deleted;
  process.stdout.write(`\nTyping: ${PER_SECOND} notices/s through node A into one room of ${MEMBERS} members, sockets on 2 nodes\n\n`);
  process.stdout.write(
    table(
      ['measure', 'samples', 'p50 ms', 'p99 ms', 'max ms', 'goal'],
      [
        [
          'POST typing -> MESSAGE receipt (every other member)',
          String(sorted.length),
          ms(percentile(sorted, 50)),
          ms(p99),
          ms(sorted[sorted.length - 1] ?? 0),
          `p99 <= ${GOAL_P99_MS} ms: ${p99 <= GOAL_P99_MS ? 'met' : 'NOT met'}`,
        ],
        [
          '  of which: node publish -> receipt (wall clock)',
          String(publishSorted.length),
          ms(percentile(publishSorted, 50)),
          ms(percentile(publishSorted, 99)),
          ms(publishSorted[publishSorted.length - 1] ?? 0),
          '-',
        ],
        [
          'baseline: Redis PUBLISH -> subscriber',
          String(baseSorted.length),
          ms(percentile(baseSorted, 50)),
          ms(percentile(baseSorted, 99)),
          ms(baseSorted[baseSorted.length - 1] ?? 0),
          '-',
        ],
      ],
    ) + '\n\n',
  );
  process.stdout.write(
    table(
      ['PostgreSQL (pg_stat_database)', 'tup_inserted', 'tup_updated', 'tup_deleted', 'xact_commit'],
      [
        [`while typing (${SECONDS} s)`, String(during.inserted), String(during.updated), String(during.deleted), String(during.commits)],
        [`baseline: idle (${SECONDS} s)`, String(idle.inserted), String(idle.updated), String(idle.deleted), String(idle.commits)],
      ],
    ) + '\n',
  );
  process.stdout.write(
    `\nnotices: ${sent.length} sent, ${refused} refused ${JSON.stringify(Object.fromEntries(refusedBy))}; deliveries: ${sorted.length} of ${sent.length * (MEMBERS - 1)}, ${missing} missing\n` +
      "xact_commit counts read-only transactions too: each notice reads the room's members once.\n" +
      `load average ${loadAtStart().join(' ')} at start, ${loadNow().join(' ')} at end, on ${availableParallelism()} CPU(s)\n`,
  );
  const failures: string[] = [];
  if (missing > 0) failures.push(`${missing} typing deliveries missing`);
  if (refused > 0) failures.push(`${refused} typing notices refused`);
  const goals: GoalRow[] = [
    {
      name: `typing: ${PER_SECOND}/s into a room of ${MEMBERS}, send -> receipt p99`,
      ours: fmtMs(p99),
      baseline: `${fmtMs(percentile(baseSorted, 99))} (Redis PUBLISH)`,
      ratio: '-',
      goal: `<= ${GOAL_P99_MS} ms`,
      met: p99 <= GOAL_P99_MS,
      values: { p50: percentile(sorted, 50), p99, baselineP99: percentile(baseSorted, 99) },
    },
    {
      name: 'typing: rows written (tup_inserted + updated + deleted)',
      ours: String(writes),
      baseline: `${idle.inserted + idle.updated + idle.deleted} (idle)`,
      ratio: '-',
      goal: '0',
      met: writes === 0,
      values: { ...during },
    },
  ];
  await writeSection('typing', goals, failures);
  return failures.length === 0 && writes === 0 ? 0 : 1;
}

await runBenchmark(main);
