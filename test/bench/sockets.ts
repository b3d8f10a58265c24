// Benchmark: sessions at scale on one chat node. One node (dist/src/main.js, SERVICES=chat,workers) holds
// BENCH_SOCKETS authenticated STOMP sessions (100,000 by default) with heart-beats, opened by load-generator
// processes (socket-swarm.ts) that each use a loopback source address of their own. Prints the connect rate, the
// node's resident memory per session, delivery from commit to receipt for a message to a room of 10,000 connected
// members (goal p99 <= 500 ms) and for an admin broadcast to every session (goal p99 <= 2 s), and, as the
// baseline measured in the same run, a bare `ws` server of as many processes: its memory per connection and the time
// it takes to write one frame to 10,000 of its connections and to all of them. Run with `make bench-sockets`
// (node dist/test/bench/sockets.js).
//
// A process may hold at most `ulimit -Hn` descriptors (20,000 on the machines this runs on, and raising it needs
// CAP_SYS_RESOURCE), so the node runs as WORKERS processes behind one port (the cluster mode of docs/operations.md)
// with at most 17,000 sessions each; a host that allows more descriptors can run it with BENCH_SOCKET_WORKERS=1.
// Heart-beats go both ways every 10 s, the default of REALTIME_HEARTBEAT_MS; BENCH_SOCKET_HEARTBEAT_MS sets another
// interval for both the node and the generators.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { exportJWK } from 'jose';
import { deliveryChannel } from '../../src/chat/realtime/delivery.js';
import { call, startTestPlatform } from '../support/platform.js';
import type { BareCommand, BareReply } from './bare-ws-server.js';
import { cpuByGroupBetween, cpuOfDescendants } from './cpu.js';
import { cleanups, ms, progress, runBenchmark, scratchInfra, table } from './report.js';
import { fmtMs, fmtRatio, writeSection, type GoalRow } from './results.js';
import type { SwarmCommand, SwarmConnect, SwarmReply } from './socket-swarm.js';

const here = dirname(fileURLToPath(import.meta.url));
const mainJs = join(here, '../../src/main.js');

const int = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const TOTAL = int('BENCH_SOCKETS', 100_000);
const PER_PROCESS = 17_000;
const WORKERS = int('BENCH_SOCKET_WORKERS', Math.max(1, Math.ceil(TOTAL / PER_PROCESS)));
const GENERATORS = Math.max(2, Math.ceil(TOTAL / PER_PROCESS));
const ROOM = Math.min(10_000, TOTAL);
const ROOM_MESSAGES = 20;
const BROADCASTS = 3;
// The product's default interval (REALTIME_HEARTBEAT_MS); BENCH_SOCKET_HEARTBEAT_MS measures another.
const HEARTBEAT_MS = int('BENCH_SOCKET_HEARTBEAT_MS', 10_000);
const GOAL_ROOM_P99_MS = 500;
const GOAL_BROADCAST_P99_MS = 2_000;

async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => 'VmRSS: 0 kB');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/** The worker processes of a cluster primary. */
async function childrenOf(pid: number): Promise<number[]> {
  const found: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === pid) found.push(Number(entry));
  }
  return found;
}

const sum = async (pids: number[]) => (await Promise.all(pids.map(rssOf))).reduce((a, b) => a + b, 0);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/**
 * Hears the relay's announcements on Redis as every node does, and keeps, per event, the time from its createdAt to
 * the last of its announcement messages: the share of a delivery spent before any node writes a frame.
 */
async function listenToRelay(redisUrl: string) {
  const subscriber = new Redis(redisUrl);
  const announced = new Map<string, { topic: string; ms: number }>();
  subscriber.on('message', (_channel: string, message: string) => {
    const now = Date.now();
    const d = JSON.parse(message) as { id: string; topic: string; createdAt: string };
    announced.set(d.id, { topic: d.topic, ms: now - Date.parse(d.createdAt) });
  });
  await subscriber.subscribe(deliveryChannel);
  cleanups.push(async () => void subscriber.disconnect());
  return (topic: string) =>
    [...announced.values()]
      .filter((a) => a.topic === topic)
      .map((a) => a.ms)
      .sort((a, b) => a - b);
}

async function startNode(databaseUrl: string, redisUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [mainJs], {
    env: {
      ...process.env,
      SERVICES: 'chat,workers',
      WORKERS: String(WORKERS),
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      CHAT_PORT: String(port),
      LOG_LEVEL: 'warn',
      SEND_RATE_LIMIT_PER_MINUTE: '1000000',
      REALTIME_HEARTBEAT_MS: String(HEARTBEAT_MS),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  cleanups.push(async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the node exited with ${child.exitCode}`);
    if (
      await fetch(`${url}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { url, child };
    await sleep(100);
  }
  throw new Error('the node did not become ready');
}

class Generator {
  private readonly child: ChildProcess;

  get pid(): number {
    return this.child.pid!;
  }

  private waiting: Array<(r: SwarmReply) => void> = [];

  constructor() {
    this.child = fork(join(here, 'socket-swarm.js'), [], {
      execArgv: ['--max-old-space-size=4096'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (r: SwarmReply) => this.waiting.shift()?.(r));
    cleanups.push(async () => {
      if (this.child.exitCode === null) this.child.kill('SIGKILL');
    });
  }

  ask<T extends SwarmReply>(command: SwarmCommand): Promise<T> {
    return new Promise((resolve) => {
      this.waiting.push(resolve as (r: SwarmReply) => void);
      this.child.send(command);
    });
  }
}

/** Collects the latencies of a topic from every generator until `expected` arrived or `waitMs` passed. */
async function collect(
  generators: Generator[],
  topic: string,
  expected: number,
  waitMs: number,
): Promise<{
  latencies: number[];
  bytes: number;
  closed: number;
  closeReasons: Record<string, number>;
  firstClosedAt?: number;
  maxTimerLagMs: number;
}> {
  const latencies: number[] = [];
  let bytes = 0;
  let closed: number;
  let closeReasons: Record<string, number>;
  let firstClosedAt: number | undefined;
  let maxTimerLagMs: number;
  const deadline = Date.now() + waitMs;
  do {
    await sleep(250);
    const replies = await Promise.all(generators.map((g) => g.ask<Extract<SwarmReply, { type: 'collected' }>>({ type: 'collect', topic })));
    for (const r of replies) {
      // One at a time: a spread of 100,000 values would pass the call stack's limit.
      for (const v of r.latencies) latencies.push(v);
      bytes += r.bytes;
    }
    // Each reply also carries its generator's running total of sessions the server closed.
    closed = replies.reduce((n, r) => n + r.closed, 0);
    const firsts = replies.flatMap((r) => (r.firstClosedAt ? [r.firstClosedAt] : []));
    firstClosedAt = firsts.length > 0 ? Math.min(...firsts) : undefined;
    maxTimerLagMs = Math.max(...replies.map((r) => r.maxTimerLagMs));
    closeReasons = {};
    for (const r of replies) for (const [k, v] of Object.entries(r.closeReasons)) closeReasons[k] = (closeReasons[k] ?? 0) + v;
  } while (latencies.length < expected && Date.now() < deadline);
  return { latencies: latencies.sort((a, b) => a - b), bytes, closed, closeReasons, firstClosedAt, maxTimerLagMs };
}

/** Opens `accountIds.length` sessions spread over the generators, each from its own source address. */
async function connect(generators: Generator[], base: Omit<SwarmConnect, 'accountIds' | 'localAddress' | 'type'>, accountIds: string[]) {
  const per = Math.ceil(accountIds.length / generators.length);
  const replies = await Promise.all(
    generators.map((g, i) =>
      g.ask<Extract<SwarmReply, { type: 'connected' }>>({
        type: 'connect',
        ...base,
        localAddress: `127.0.0.${11 + i}`,
        accountIds: accountIds.slice(i * per, (i + 1) * per),
      }),
    ),
  );
  const open = replies.reduce((n, r) => n + r.open, 0);
  const failed = replies.reduce((n, r) => n + r.failed, 0);
  const seconds = Math.max(...replies.map((r) => r.seconds));
  const firstError = replies.find((r) => r.firstError)?.firstError;
  return { open, failed, seconds, firstError };
}

async function main(): Promise<number> {
  const { databaseUrl, redisUrl } = await scratchInfra('sockets-bench-');
  const control = await startTestPlatform({ services: [] });
  cleanups.push(() => control.stop());
  const tenant = await control.tenant();
  const adminToken = await control.adminToken();

  progress(`registering ${TOTAL} accounts`);
  const { rows } = await control.db.query<{ id: string }>(
    `insert into accounts (id, module_code, customer_account_id, display_name, account_type, status)
     select gen_random_uuid(), $1, $2, 'Bench ' || g, 'USER', 'ACTIVE' from generate_series(1, $3::int) g returning id`,
    [tenant.moduleCode, tenant.customer, TOTAL],
  );
  const accountIds = rows.map((r) => r.id);

  progress(`starting one chat node of ${WORKERS} worker processes`);
  const node = await startNode(databaseUrl, redisUrl);
  const relayed = await listenToRelay(redisUrl);
  const workers = WORKERS > 1 ? await childrenOf(node.child.pid!) : [node.child.pid!];
  const rssBefore = await sum(workers);

  const generators = Array.from({ length: GENERATORS }, () => new Generator());
  const jwk = await exportJWK(tenant.privateKey);
  progress(`opening ${TOTAL} STOMP sessions from ${GENERATORS} generators (heart-beats every ${HEARTBEAT_MS} ms)`);
  const wsUrl = `${node.url.replace('http', 'ws')}/ws`;
  const opened = await connect(
    generators,
    {
      url: wsUrl,
      jwk,
      kid: tenant.kid,
      issuer: tenant.moduleCode,
      audience: control.config.jwtAudience,
      customer: tenant.customer,
      heartbeatMs: HEARTBEAT_MS,
      inFlight: 64,
    },
    accountIds,
  );
  progress(
    `${opened.open} open, ${opened.failed} failed${opened.firstError ? ` (first: ${opened.firstError})` : ''} in ${opened.seconds.toFixed(1)} s`,
  );
  const openedAt = Date.now();
  await sleep(3_000);
  const rssSessions = await sum(workers);

  // What holding the sessions costs while nothing is sent: heart-beats both ways and presence refreshes.
  const nodePids = new Set([node.child.pid!, ...workers]);
  const generatorPids = new Set(generators.map((g) => g.pid));
  const groupOf = (pid: number, comm: string) =>
    nodePids.has(pid)
      ? 'chat node'
      : generatorPids.has(pid)
        ? 'load generators'
        : comm.startsWith('postgres')
          ? 'PostgreSQL'
          : comm.startsWith('redis')
            ? 'redis-server'
            : undefined;
  const idleFrom = cpuOfDescendants(groupOf);
  const idleSeconds = 20;
  await sleep(idleSeconds * 1000);
  const idleCpu = [...cpuByGroupBetween(idleFrom, cpuOfDescendants(groupOf))].map(
    ([group, msUsed]) => `${group} ${(msUsed / idleSeconds / 10).toFixed(0)}%`,
  );
  progress(`holding ${opened.open} idle sessions for ${idleSeconds} s, CPU (of one core): ${idleCpu.join(', ')}`);

  const roomAt = Date.now();
  progress(`a room of ${ROOM} members, all connected: ${ROOM_MESSAGES} messages`);
  const owner = accountIds[0]!;
  const ownerToken = await tenant.sign({}, { subject: owner });
  const created = await call(node.url, 'POST', '/api/v1/rooms', {
    token: ownerToken,
    body: { type: 'GROUP', name: 'Bench room', memberIds: accountIds.slice(1, 500) },
  });
  if (created.status !== 201) throw new Error(`create room: HTTP ${created.status} ${JSON.stringify(created.body)}`);
  const roomId = created.body.data.id as string;
  await control.db.query(`insert into room_members (room_id, account_id, role, joined_at) select $1, unnest($2::uuid[]), 'MEMBER', now()`, [
    roomId,
    accountIds.slice(500, ROOM),
  ]);
  // The count the service keeps: presence notices (and the room's views) rely on it.
  await control.db.query(`update rooms set member_count = (select count(*) from room_members where room_id = $1) where id = $1`, [roomId]);
  await sleep(1_000);
  for (let k = 0; k < ROOM_MESSAGES; k++) {
    const sent = await call(node.url, 'POST', `/api/v1/rooms/${roomId}/messages`, {
      token: ownerToken,
      body: { text: `bench message ${k}` },
    });
    if (sent.status !== 201) throw new Error(`send: HTTP ${sent.status}`);
    await sleep(500);
  }
  const room = await collect(generators, 'message.created', ROOM_MESSAGES * ROOM, 30_000);

  const broadcastAt = Date.now();
  progress(`${BROADCASTS} admin broadcasts to every session`);
  for (let k = 0; k < BROADCASTS; k++) {
    const sent = await call(node.url, 'POST', '/api/v1/admin/broadcasts', {
      token: adminToken,
      body: { title: 'Bench', text: `bench broadcast ${k}` },
    });
    if (sent.status !== 200 && sent.status !== 201) throw new Error(`broadcast: HTTP ${sent.status} ${JSON.stringify(sent.body)}`);
    await sleep(4_000);
  }
  const broadcast = await collect(generators, 'broadcast.created', BROADCASTS * opened.open, 30_000);
  const rssEnd = await sum(workers);
  await Promise.all(generators.map((g) => g.ask({ type: 'close' })));
  node.child.kill('SIGTERM');
  await new Promise((r) => node.child.once('exit', r));

  progress(`baseline: a bare ws server of ${WORKERS} process${WORKERS > 1 ? 'es' : ''}, ${TOTAL} connections`);
  const bare = fork(join(here, 'bare-ws-server.js'), [], {
    env: { ...process.env, BARE_WS_WORKERS: String(WORKERS) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  cleanups.push(async () => void (bare.exitCode === null && bare.kill('SIGKILL')));
  const bareReplies: Array<(r: BareReply) => void> = [];
  bare.on('message', (r: BareReply) => bareReplies.shift()?.(r));
  const askBare = <T extends BareReply>(c?: BareCommand) =>
    new Promise<T>((resolve) => {
      bareReplies.push(resolve as (r: BareReply) => void);
      if (c) bare.send(c);
    });
  const { port } = await askBare<Extract<BareReply, { type: 'listening' }>>();
  const bareBefore = (await askBare<Extract<BareReply, { type: 'rss' }>>({ type: 'rss' })).rss;
  const baseGenerators = Array.from({ length: GENERATORS }, () => new Generator());
  const bareOpen = await connect(
    baseGenerators,
    { url: `ws://127.0.0.1:${port}`, jwk, kid: '', issuer: '', audience: '', customer: '', heartbeatMs: 0, inFlight: 64, raw: true },
    accountIds,
  );
  await sleep(2_000);
  const bareAfter = (await askBare<Extract<BareReply, { type: 'rss' }>>({ type: 'rss' })).rss;
  // The same body sizes as the events, and the same pace, so that the writes compare.
  const bareBody = (topic: string, measured: { bytes: number; latencies: number[] }) => {
    const size = measured.latencies.length > 0 ? Math.round(measured.bytes / measured.latencies.length) : 300;
    const skeleton = `{"topic":"${topic}","createdAt":"","pad":""}`;
    return skeleton.replace('"pad":""', `"pad":"${'x'.repeat(Math.max(0, size - skeleton.length - 24))}"`);
  };
  const baseRoomSize = Math.min(ROOM, bareOpen.open);
  for (let k = 0; k < ROOM_MESSAGES; k++) {
    await askBare({ type: 'broadcast', body: bareBody('baseline', room), limit: baseRoomSize });
    await sleep(500);
  }
  const base = await collect(baseGenerators, 'baseline', ROOM_MESSAGES * baseRoomSize, 30_000);
  for (let k = 0; k < BROADCASTS; k++) {
    await askBare({ type: 'broadcast', body: bareBody('baseline-all', broadcast) });
    await sleep(4_000);
  }
  const baseAll = await collect(baseGenerators, 'baseline-all', BROADCASTS * bareOpen.open, 30_000);
  await Promise.all(baseGenerators.map((g) => g.ask({ type: 'close' })));

  const perSession = (rssSessions - rssBefore) / Math.max(1, opened.open);
  const perBare = (bareAfter - bareBefore) / Math.max(1, bareOpen.open);
  const roomP99 = percentile(room.latencies, 99);
  const broadcastP99 = percentile(broadcast.latencies, 99);
  const verdict = (value: number, goal: number) => (value <= goal ? `p99 <= ${goal} ms: met` : `p99 <= ${goal} ms: NOT met`);
  process.stdout.write(
    `\nSessions at scale: one chat node (${WORKERS} worker process${WORKERS > 1 ? 'es' : ''}), ${opened.open} STOMP sessions with ${HEARTBEAT_MS / 1000} s heart-beats\n\n`,
  );
  process.stdout.write(
    table(
      ['measure', 'samples', 'p50 ms', 'p99 ms', 'max ms', 'goal'],
      [
        [
          `message to a room of ${ROOM} connected members`,
          `${room.latencies.length} of ${ROOM_MESSAGES * ROOM}`,
          ms(percentile(room.latencies, 50)),
          ms(roomP99),
          ms(room.latencies.at(-1) ?? NaN),
          verdict(roomP99, GOAL_ROOM_P99_MS),
        ],
        [
          `admin broadcast to all ${opened.open} sessions`,
          `${broadcast.latencies.length} of ${BROADCASTS * opened.open}`,
          ms(percentile(broadcast.latencies, 50)),
          ms(broadcastP99),
          ms(broadcast.latencies.at(-1) ?? NaN),
          verdict(broadcastP99, GOAL_BROADCAST_P99_MS),
        ],
        ...(['message.created', 'broadcast.created'] as const).map((topic) => {
          const times = relayed(topic);
          return [
            `of which: event created to the relay's last announcement (${topic})`,
            `${times.length} events`,
            ms(percentile(times, 50)),
            ms(percentile(times, 99)),
            ms(times.at(-1) ?? NaN),
            '-',
          ];
        }),
        [
          `baseline: bare ws server, one frame to ${baseRoomSize} of its connections`,
          `${base.latencies.length} of ${ROOM_MESSAGES * baseRoomSize}`,
          ms(percentile(base.latencies, 50)),
          ms(percentile(base.latencies, 99)),
          ms(base.latencies.at(-1) ?? NaN),
          '-',
        ],
        [
          `baseline: bare ws server, one frame to all ${bareOpen.open} connections`,
          `${baseAll.latencies.length} of ${BROADCASTS * bareOpen.open}`,
          ms(percentile(baseAll.latencies, 50)),
          ms(percentile(baseAll.latencies, 99)),
          ms(baseAll.latencies.at(-1) ?? NaN),
          '-',
        ],
      ],
    ) + '\n\n',
  );
  process.stdout.write(
    table(
      ['memory', 'before', 'with sessions', 'at the end', 'per session'],
      [
        [
          `chat node (${workers.length} process${workers.length > 1 ? 'es' : ''}, RSS)`,
          mib(rssBefore),
          mib(rssSessions),
          mib(rssEnd),
          `${(perSession / 1024).toFixed(1)} KiB`,
        ],
        [
          `baseline: bare ws server (${WORKERS} process${WORKERS > 1 ? 'es' : ''}, RSS)`,
          mib(bareBefore),
          mib(bareAfter),
          '-',
          `${(perBare / 1024).toFixed(1)} KiB`,
        ],
      ],
    ) + '\n',
  );
  process.stdout.write(
    `\nsessions: ${opened.open} of ${TOTAL} opened in ${opened.seconds.toFixed(1)} s (${(opened.open / Math.max(opened.seconds, 0.001)).toFixed(0)}/s), ${opened.failed} failed` +
      `; idle, CPU of one core: ${idleCpu.join(', ')}` +
      `, ${broadcast.closed} closed by the node afterwards${broadcast.closed > 0 ? ` ${JSON.stringify(broadcast.closeReasons)}` : ''}` +
      (broadcast.firstClosedAt
        ? ` (the first ${broadcast.firstClosedAt < openedAt ? `${((openedAt - broadcast.firstClosedAt) / 1000).toFixed(1)} s before all were open` : `${((broadcast.firstClosedAt - openedAt) / 1000).toFixed(1)} s after all were open`}; the room began at ${((roomAt - openedAt) / 1000).toFixed(1)} s, the broadcasts at ${((broadcastAt - openedAt) / 1000).toFixed(1)} s)`
        : '') +
      `; the generators' heart-beat timers ran at most ${broadcast.maxTimerLagMs} ms late` +
      `; event bytes per delivery: room ${room.latencies.length ? (room.bytes / room.latencies.length).toFixed(0) : '-'}, broadcast ${broadcast.latencies.length ? (broadcast.bytes / broadcast.latencies.length).toFixed(0) : '-'}\n`,
  );
  const failures: string[] = [];
  if (opened.failed > 0) failures.push(`${opened.failed} sessions failed to open (first: ${opened.firstError})`);
  if (broadcast.closed > 0)
    failures.push(`${broadcast.closed} sessions closed by the node during the run: ${JSON.stringify(broadcast.closeReasons)}`);
  if (room.latencies.length < ROOM_MESSAGES * ROOM)
    failures.push(`room: ${ROOM_MESSAGES * ROOM - room.latencies.length} deliveries missing`);
  if (broadcast.latencies.length < BROADCASTS * opened.open)
    failures.push(`broadcast: ${BROADCASTS * opened.open - broadcast.latencies.length} deliveries missing`);
  const baseP99 = percentile(base.latencies, 99);
  const baseAllP99 = percentile(baseAll.latencies, 99);
  const beatsNote = HEARTBEAT_MS === 10_000 ? '' : ` (heart-beats every ${HEARTBEAT_MS / 1000} s)`;
  const goals: GoalRow[] = [
    {
      name: `sockets: message to a room of ${ROOM} connected members, p99${beatsNote}`,
      ours: fmtMs(roomP99),
      baseline: `bare ws write to ${baseRoomSize}: ${fmtMs(baseP99)}`,
      ratio: fmtRatio(roomP99 / baseP99),
      goal: `p99 <= ${GOAL_ROOM_P99_MS} ms`,
      met: roomP99 <= GOAL_ROOM_P99_MS,
      values: { p99: roomP99, baselineP99: baseP99 },
    },
    {
      name: `sockets: admin broadcast to ${opened.open} sessions, p99${beatsNote}`,
      ours: fmtMs(broadcastP99),
      baseline: `bare ws write to ${bareOpen.open}: ${fmtMs(baseAllP99)}`,
      ratio: fmtRatio(broadcastP99 / baseAllP99),
      goal: `p99 <= ${GOAL_BROADCAST_P99_MS} ms`,
      met: broadcastP99 <= GOAL_BROADCAST_P99_MS,
      values: { p99: broadcastP99, sessions: opened.open, baselineP99: baseAllP99 },
    },
    {
      name: `sockets: memory per session (${opened.open} sessions, RSS)`,
      ours: `${(perSession / 1024).toFixed(1)} KiB`,
      baseline: `bare ws: ${(perBare / 1024).toFixed(1)} KiB`,
      ratio: fmtRatio(perSession / perBare),
      goal: `${TOTAL} sessions held`,
      met: opened.open === TOTAL,
      values: { bytesPerSession: perSession, bareBytesPerConnection: perBare },
    },
  ];
  await writeSection(HEARTBEAT_MS === 10_000 ? 'sockets' : `sockets-heartbeat-${HEARTBEAT_MS}`, goals, failures);
  return failures.length === 0 ? 0 : 1;
}

await runBenchmark(main);
