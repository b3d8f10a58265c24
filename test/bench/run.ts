// Benchmark: send, scroll, room list and thread pages through the full stack (HTTP -> Fastify/openapi-glue ->
// JWT auth -> service -> pg) against a baseline measured in the same run through the pg driver directly.
// Starts its own embedded PostgreSQL and redis-server in a temporary folder and removes it at the end.
// Run with `make bench` (node dist/test/bench/run.js). Prints tables; exits 0 when every request succeeded.
import { availableParallelism } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { encodeCursor } from '../../src/platform/http/cursor.js';
import { call, startTestPlatform, type TestPlatform } from '../support/platform.js';
import { cleanups, elapsed, ms, progress, ratio, rps, runBenchmark, scratchInfra, table } from './report.js';
import { benchChannels } from './channels.js';
import { benchRoomList } from './room-list.js';
import { benchThreads } from './threads.js';
import { pageSql, startLoadWorker, summarize, type LoadResult, type LoadTask, type LoadWorker, type RawResult } from './tasks.js';

const SEND_REQUESTS = 2_000;
const SEND_WARMUP = 200;
const SEND_CONCURRENCIES = [1, 8, 32];
const SCROLL_ROUNDS = 5; // scroll cases are interleaved round by round, so drift hits them all alike
const SCROLL_PER_ROUND = 100;
const SCROLL_WARMUP = 200;
const PAGE_LIMIT = 50; // the API's default page size
const SMALL_ROOM = 1_000;
const BIG_ROOM = 1_000_000;
const RUN_CAP_MS = 45_000; // per measured run (and per warm-up)
const MESSAGE_TEXT = 'benchmark message: the quick brown fox jumps over the lazy dog';
const SEND_RATIO_TODAY = 0.35; // issue 9: the ratio of the first chat slice, which must not fall
const SEND_RATIO_TARGET = 0.5;

// ---------------------------------------------------------------------------------------------- helpers

async function createRoom(p: TestPlatform, token: string, name: string, memberIds: string[] = []): Promise<string> {
  const res = await call(p.chatUrl, 'POST', '/api/v1/rooms', { token, body: { type: 'GROUP', name, memberIds } });
  if (res.status !== 201) throw new Error(`create room: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/**
 * Waits until the outbox relay has published every event, so that one run's backlog (the baseline's sends
 * request no drain) is not relayed during the next run. A throwaway send through the API requests a drain.
 */
async function settleOutbox(p: TestPlatform, token: string, roomId: string): Promise<void> {
  const deadline = performance.now() + 60_000;
  for (let i = 0; performance.now() < deadline && i < 600; i++) {
    const { rows } = await p.db.query<{ n: string }>('select count(*) as n from outbox where published_at is null');
    if (Number(rows[0]!.n) === 0) return;
    if (i % 10 === 0) await call(p.chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages`, { token, body: { text: 'drain' } });
    await sleep(100);
  }
  throw new Error('the outbox did not drain within 60s');
}

/** Seeds `count` messages in one INSERT ... SELECT generate_series, and sets the room's sequence. */
async function seedRoom(p: TestPlatform, roomId: string, senderId: string, count: number, idFn: string): Promise<void> {
  await p.db.query(
    `insert into messages (id, room_id, seq, sender_id, type, text, created_at)
     select ${idFn}, $1, g, $2, 'TEXT', 'seeded message number ' || g,
            now() - make_interval(secs => ($3::int - g))
       from generate_series(1, $3::int) g`,
    [roomId, senderId, count],
  );
  await p.db.query('update rooms set last_seq = $2, last_activity_at = now() where id = $1', [roomId, count]);
}

interface PlanSummary {
  node: string;
  index: string;
  buffers: number;
  execMs: number;
}

async function explainPage(p: TestPlatform, roomId: string, beforeSeq: number | null): Promise<PlanSummary> {
  const params = beforeSeq !== null ? [roomId, PAGE_LIMIT + 1, beforeSeq] : [roomId, PAGE_LIMIT + 1];
  const { rows } = await p.db.query(`explain (analyze, buffers, format json) ${pageSql(beforeSeq !== null)}`, params);
  const doc = (rows[0] as Record<string, unknown>)['QUERY PLAN'] as Array<{ Plan: Record<string, any>; 'Execution Time': number }>;
  let plan = doc[0]!.Plan;
  while (plan['Node Type'] === 'Limit' && plan.Plans?.[0]) plan = plan.Plans[0];
  return {
    node: `${plan['Node Type']}${plan['Scan Direction'] ? ` ${plan['Scan Direction']}` : ''}`,
    index: plan['Index Name'] ?? '-',
    buffers: (plan['Shared Hit Blocks'] ?? 0) + (plan['Shared Read Blocks'] ?? 0),
    execMs: doc[0]!['Execution Time'],
  };
}

function check(label: string, r: LoadResult, failures: string[]): void {
  if (r.errors > 0) failures.push(`${label}: ${r.errors} failed request(s); first: ${r.firstError ?? 'unexpected result'}`);
  if (r.count < 1) failures.push(`${label}: no request completed`);
}

// ---------------------------------------------------------------------------------------------- main

async function main(): Promise<number> {
  const database = { url: (await scratchInfra('platform-bench-')).databaseUrl };

  const platform = await startTestPlatform(); // chat listener + workers, logLevel silent, free port
  cleanups.push(() => platform.stop());
  const worker: LoadWorker = startLoadWorker(database.url);
  cleanups.push(() => worker.close());
  progress(`platform listening on ${platform.chatUrl}`);

  const { rows: versionRows } = await platform.db.query<{ v: string; n: string }>(
    "select current_setting('server_version') as v, current_setting('server_version_num') as n",
  );
  const pgVersion = versionRows[0]!.v;
  const idFn = Number(versionRows[0]!.n) >= 180000 ? 'uuidv7()' : 'gen_random_uuid()';

  const tenant = await platform.tenant();
  const alice = await tenant.account({ displayName: 'Bench Alice' });
  const maxConcurrency = Math.max(...SEND_CONCURRENCIES);
  const sendRooms: string[] = [];
  for (let i = 0; i < maxConcurrency; i++) sendRooms.push(await createRoom(platform, alice.token, `send-${i}`));
  const hotRoom = await createRoom(platform, alice.token, 'send-hot');
  const drainRoom = await createRoom(platform, alice.token, 'drain');
  const failures: string[] = [];

  // ------------------------------------------------------------------ send
  interface SendRow {
    label: string;
    concurrency: number;
    stack: LoadResult;
    base: LoadResult;
  }
  const sendRows: SendRow[] = [];
  const sendCases = [
    ...SEND_CONCURRENCIES.map((c) => ({ label: `${c} room${c > 1 ? 's' : ''}, 1 sender each`, concurrency: c, rooms: sendRooms.slice(0, c) })),
    { label: '1 hot room, 32 senders', concurrency: 32, rooms: [hotRoom] },
  ];
  for (const c of sendCases) {
    const common = { concurrency: c.concurrency, requests: SEND_REQUESTS, warmup: SEND_WARMUP, capMs: RUN_CAP_MS, text: MESSAGE_TEXT, roomIds: c.rooms };
    progress(`send, ${c.label}: driver baseline`);
    const base = summarize([await worker.run({ kind: 'sql-send', accountId: alice.id, ...common })]);
    await settleOutbox(platform, alice.token, drainRoom);
    progress(`send, ${c.label}: full stack`);
    const stack = summarize([await worker.run({ kind: 'http-send', baseUrl: platform.chatUrl, token: alice.token, ...common })]);
    await settleOutbox(platform, alice.token, drainRoom);
    check(`send ${c.label} (driver)`, base, failures);
    check(`send ${c.label} (stack)`, stack, failures);
    sendRows.push({ label: c.label, concurrency: c.concurrency, stack, base });
  }

  // ------------------------------------------------------------------ scroll
  const smallRoom = await createRoom(platform, alice.token, 'scroll-1k');
  const bigRoom = await createRoom(platform, alice.token, 'scroll-1M');
  progress(`seeding ${SMALL_ROOM.toLocaleString('en')} and ${BIG_ROOM.toLocaleString('en')} messages (INSERT ... SELECT generate_series)`);
  const seedStart = performance.now();
  await seedRoom(platform, smallRoom, alice.id, SMALL_ROOM, idFn);
  await seedRoom(platform, bigRoom, alice.id, BIG_ROOM, idFn);
  const seedMs = performance.now() - seedStart;
  const analyzeStart = performance.now();
  await platform.db.query('vacuum (analyze) messages');
  const analyzeMs = performance.now() - analyzeStart;
  progress(`seeded in ${(seedMs / 1000).toFixed(1)}s, vacuum+analyze ${(analyzeMs / 1000).toFixed(1)}s`);

  interface ScrollCase {
    room: string;
    roomId: string;
    size: number;
    page: string;
    beforeSeq: number | null;
    stackTask: LoadTask;
    baseTask: LoadTask;
    stackRuns: RawResult[];
    baseRuns: RawResult[];
  }
  const scrollCases: ScrollCase[] = [];
  for (const [room, roomId, size] of [
    ['1k', smallRoom, SMALL_ROOM],
    ['1M', bigRoom, BIG_ROOM],
  ] as const) {
    for (const page of ['newest', 'middle'] as const) {
      const beforeSeq = page === 'middle' ? Math.floor(size / 2) + 1 : null;
      const common = { concurrency: 1, requests: SCROLL_PER_ROUND, warmup: 0, capMs: RUN_CAP_MS, roomId };
      scrollCases.push({
        room,
        roomId,
        size,
        page: page === 'middle' ? `middle (before seq ${beforeSeq})` : 'newest',
        beforeSeq,
        baseTask: { kind: 'sql-page', beforeSeq, limit: PAGE_LIMIT, ...common },
        stackTask: {
          kind: 'http-page',
          baseUrl: platform.chatUrl,
          token: alice.token,
          cursor: beforeSeq !== null ? encodeCursor({ s: beforeSeq }) : null,
          ...common,
        },
        stackRuns: [],
        baseRuns: [],
      });
    }
  }
  progress(`scroll: warm-up, ${SCROLL_WARMUP} requests per case`);
  for (const c of scrollCases) {
    await worker.run({ ...c.baseTask, requests: SCROLL_WARMUP });
    await worker.run({ ...c.stackTask, requests: SCROLL_WARMUP });
  }
  for (let round = 0; round < SCROLL_ROUNDS; round++) {
    progress(`scroll: round ${round + 1}/${SCROLL_ROUNDS}, ${SCROLL_PER_ROUND} requests per case, driver then stack`);
    const order = round % 2 === 0 ? scrollCases : [...scrollCases].reverse();
    for (const c of order) {
      c.baseRuns.push(await worker.run(c.baseTask));
      c.stackRuns.push(await worker.run(c.stackTask));
    }
  }
  interface ScrollRow {
    room: string;
    size: number;
    page: string;
    stack: LoadResult;
    base: LoadResult;
    plan: PlanSummary;
  }
  const scrollRows: ScrollRow[] = [];
  for (const c of scrollCases) {
    const row = {
      room: c.room,
      size: c.size,
      page: c.page,
      stack: summarize(c.stackRuns),
      base: summarize(c.baseRuns),
      plan: await explainPage(platform, c.roomId, c.beforeSeq),
    };
    check(`scroll ${c.room} ${c.page} (driver)`, row.base, failures);
    check(`scroll ${c.room} ${c.page} (stack)`, row.stack, failures);
    scrollRows.push(row);
  }
  // Sanity: a middle page through the API holds the expected messages.
  const probe = await call(platform.chatUrl, 'GET', `/api/v1/rooms/${bigRoom}/messages?before=${encodeCursor({ s: BIG_ROOM / 2 + 1 })}`, {
    token: alice.token,
  });
  const texts = (probe.body?.data ?? []).map((m: { text: string }) => m.text);
  const expectedLast = `seeded message number ${BIG_ROOM / 2}`;
  if (probe.status !== 200 || texts.length !== PAGE_LIMIT || texts[texts.length - 1] !== expectedLast) {
    failures.push(`scroll sanity: expected ${PAGE_LIMIT} messages ending with "${expectedLast}", got HTTP ${probe.status} ${texts.length} items`);
  }

  // ------------------------------------------------------------------ room list, threads
  const roomList = await benchRoomList(platform, tenant, worker);
  failures.push(...roomList.failures);
  const replier = await tenant.account({ displayName: 'Bench Replier' });
  const threads = await benchThreads(platform, alice, replier, (name, memberIds) => createRoom(platform, alice.token, name, memberIds), worker);
  failures.push(...threads.failures);
  const channels = await benchChannels(platform);
  failures.push(...channels.failures);

  // ------------------------------------------------------------------ report
  const out: string[] = [];
  out.push('');
  out.push('CHAT PLATFORM BENCHMARK');
  out.push(
    `node ${process.version}, PostgreSQL ${pgVersion} (embedded, fsync=on), redis-server (local), ${availableParallelism()} CPU(s); ` +
      `platform in-process (chat listener + outbox workers, log silent); load generated from a worker thread.`,
  );
  out.push(
    'stack  = real HTTP through the platform: fetch (keep-alive) -> Fastify/openapi-glue validation -> bearer JWT auth -> service -> pg pool (20).',
  );
  out.push('driver = SQL issued directly with the pg driver (pool of 20, same factory as the service), same concurrency; each section says which SQL.');
  out.push('Latencies in milliseconds, measured per request by the client. Ratios are stack / driver:');
  out.push('  throughput ratio < 1 and latency ratio > 1 both mean the stack costs more than the bare statement.');
  out.push('');
  out.push(
    '1. SEND  POST /api/v1/rooms/{roomId}/messages vs a raw driver insert of the same row (RAW_SEND_SQL in tasks.ts: bump room seq + insert message',
  );
  out.push('   + outbox row, one statement; the send of the first chat slice, frozen so that the service\'s added bookkeeping shows in the ratio).');
  out.push(`   ${SEND_REQUESTS} measured requests per run after ${SEND_WARMUP} warm-up, each run capped at ${RUN_CAP_MS / 1000}s; each commit is fsynced.`);
  out.push('');
  out.push(
    table(
      ['case', 'concurrency', 'requests', 'stack req/s', 'driver req/s', 'req/s ratio', 'stack p50', 'driver p50', 'p50 ratio', 'stack p99', 'driver p99', 'p99 ratio', 'errors'],
      sendRows.map((r) => [
        r.label,
        String(r.concurrency),
        String(r.stack.count === r.base.count ? r.stack.count : `${r.stack.count}/${r.base.count}`),
        rps(r.stack.throughput),
        rps(r.base.throughput),
        ratio(r.stack.throughput, r.base.throughput),
        ms(r.stack.p50),
        ms(r.base.p50),
        ratio(r.stack.p50, r.base.p50),
        ms(r.stack.p99),
        ms(r.base.p99),
        ratio(r.stack.p99, r.base.p99),
        String(r.stack.errors + r.base.errors),
      ]),
    ),
  );
  out.push('   ("1 hot room": all senders contend for the same rooms row lock, which serialises the sends of one room by design.)');
  const sendRatios = SEND_CONCURRENCIES.map((c) => {
    const r = sendRows.find((row) => row.concurrency === c && !row.label.includes('hot'))!;
    return { c, ratio: r.stack.throughput / r.base.throughput };
  });
  out.push(
    `   send throughput ratio stack/driver: ${sendRatios.map((r) => `concurrency ${r.c} ${r.ratio.toFixed(2)}x`).join(', ')}. ` +
      `Issue 9: about ${SEND_RATIO_TODAY} before it, must not fall; target >= ${SEND_RATIO_TARGET}: ` +
      `${sendRatios.every((r) => r.ratio >= SEND_RATIO_TARGET) ? 'met' : `not met at concurrency ${sendRatios.filter((r) => r.ratio < SEND_RATIO_TARGET).map((r) => r.c).join(', ')}`}.`,
  );
  out.push('');
  out.push(`2. SCROLL  GET /api/v1/rooms/{roomId}/messages (limit ${PAGE_LIMIT}) vs the service's keyset page query on messages(room_id, seq)`);
  out.push(
    `   concurrency 1; ${SCROLL_WARMUP} warm-up requests per case, then ${SCROLL_ROUNDS} interleaved rounds of ${SCROLL_PER_ROUND} ` +
      `(${SCROLL_ROUNDS * SCROLL_PER_ROUND} measured per case and column).\n   Seeded with one INSERT ... SELECT generate_series ` +
      `(${(seedMs / 1000).toFixed(1)}s for ${(SMALL_ROOM + BIG_ROOM).toLocaleString('en')} rows), then VACUUM ANALYZE (${(analyzeMs / 1000).toFixed(1)}s).`,
  );
  out.push('   The stack also runs the service\'s membership check (one more round trip) before the page query; the driver column is the page query alone.');
  out.push('');
  out.push(
    table(
      ['room', 'page', 'requests', 'stack p50', 'driver p50', 'p50 ratio', 'stack p99', 'driver p99', 'p99 ratio', 'stack req/s', 'errors', 'plan (EXPLAIN ANALYZE of the page query)'],
      scrollRows.map((r) => [
        `${r.room} msgs`,
        r.page,
        String(r.stack.count === r.base.count ? r.stack.count : `${r.stack.count}/${r.base.count}`),
        ms(r.stack.p50),
        ms(r.base.p50),
        ratio(r.stack.p50, r.base.p50),
        ms(r.stack.p99),
        ms(r.base.p99),
        ratio(r.stack.p99, r.base.p99),
        rps(r.stack.throughput),
        String(r.stack.errors + r.base.errors),
        `${r.plan.node} on ${r.plan.index}, ${r.plan.buffers} buffers, ${r.plan.execMs.toFixed(3)} ms`,
      ]),
    ),
  );
  out.push('');
  out.push('3. ROOM SIZE  the same page in the 1M-message room vs the 1k-message room (p50, ms; ratio = 1M / 1k, ~1.00x means size-independent)');
  out.push('');
  out.push(
    table(
      ['page', 'stack 1k', 'stack 1M', 'stack 1M/1k', 'driver 1k', 'driver 1M', 'driver 1M/1k', 'buffers 1k', 'buffers 1M'],
      ['newest', 'middle'].map((page) => {
        const small = scrollRows.find((r) => r.size === SMALL_ROOM && r.page.startsWith(page))!;
        const big = scrollRows.find((r) => r.size === BIG_ROOM && r.page.startsWith(page))!;
        return [
          page === 'middle' ? 'middle (seq n/2)' : 'newest',
          ms(small.stack.p50),
          ms(big.stack.p50),
          ratio(big.stack.p50, small.stack.p50),
          ms(small.base.p50),
          ms(big.base.p50),
          ratio(big.base.p50, small.base.p50),
          String(small.plan.buffers),
          String(big.plan.buffers),
        ];
      }),
    ),
  );
  out.push('');
  for (const section of [roomList.lines, threads.lines, channels.lines]) {
    if (section.length === 0) continue;
    out.push(...section);
    out.push('');
  }
  if (failures.length > 0) {
    out.push('FAILURES');
    for (const f of failures) out.push(`  ${f}`);
  } else {
    out.push(`All requests succeeded. Total run time ${elapsed()} (including setup).`);
  }
  process.stdout.write(`${out.join('\n')}\n`);
  return failures.length > 0 ? 1 : 0;
}

await runBenchmark(main);
