// Benchmark: realtime fan-out. Two chat nodes as separate processes (dist/src/main.js, SERVICES=chat,workers) on
// one embedded PostgreSQL and redis-server; 1,000 @stomp/stompjs clients over ws, half on each node, one per
// account, in 20 rooms of 50 members; messages sent through node A. Prints p50/p99 from commit to receipt (goal
// p99 <= 50 ms) beside a baseline (a bare Redis PUBLISH to a subscriber in this process, the floor of any
// cross-node fan-out), checks that every socket got every event of its room with consecutive seqs, and prints the
// nodes' resident memory per open connection. Events carry the message (docs/events.md): it prints the event bytes
// per delivery and the chat HTTP requests the nodes answered while measuring (the sends, none per recipient), and
// checks that every delivery carried its message's text. Run with `make bench-realtime` (node
// dist/test/bench/realtime.js); REALTIME_BENCH_SOCKETS and REALTIME_BENCH_MESSAGES run it smaller on a busy machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Client, type IMessage } from '@stomp/stompjs';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { call, startTestPlatform } from '../support/platform.js';
import { cleanups, ms, progress, runBenchmark, scratchInfra, table } from './report.js';

const ROOM_SIZE = 50;
const SOCKETS = Math.max(ROOM_SIZE, Math.floor(Number(process.env.REALTIME_BENCH_SOCKETS ?? 1_000) / ROOM_SIZE) * ROOM_SIZE);
const WARMUP_MESSAGES = 40;
const MESSAGES = Number(process.env.REALTIME_BENCH_MESSAGES ?? 400);
const SEND_GAP_MS = 10; // about 60-80 messages/s through node A, 3,000-4,000 deliveries/s
const GOAL_P99_MS = 50;

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

interface Node {
  url: string;
  metricsUrl: string;
  child: ChildProcess;
}

/** Chat HTTP requests a node has answered (its platform_http_requests_total of the chat listener). */
async function chatRequests(node: Node): Promise<number> {
  const text = await (await fetch(`${node.metricsUrl}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('platform_http_requests_total{') && line.includes('listener="chat"'))
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

async function startNode(name: string, databaseUrl: string, redisUrl: string): Promise<Node> {
  const port = await freePort();
  const metricsPort = await freePort();
  const child = spawn(process.execPath, [mainJs], {
    env: {
      ...process.env,
      SERVICES: 'chat,workers',
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      CHAT_PORT: String(port),
      METRICS_PORT: String(metricsPort),
      LOG_LEVEL: 'warn',
      SEND_RATE_LIMIT_PER_MINUTE: '1000000',
      REALTIME_MAX_SESSIONS_PER_ACCOUNT: '5',
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
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, metricsUrl: `http://127.0.0.1:${metricsPort}`, child };
    await sleep(100);
  }
  throw new Error(`node ${name} did not become ready`);
}

async function rssBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Socket {
  client: Client;
  roomIndex: number;
  seqs: number[];
  messageIds: Set<string>;
}

/** Sizes of the measured message.created MESSAGE bodies, and how many lacked the message's text. */
const bodies = { bytes: 0, count: 0, withoutText: 0 };

async function main(): Promise<number> {
  const { databaseUrl, redisUrl } = await scratchInfra('realtime-bench-');
  // An in-process platform with no service: tenants, accounts and tokens written straight to the database.
  const control = await startTestPlatform({ services: [] });
  cleanups.push(() => control.stop());
  progress('starting two chat nodes');
  const [a, b] = [await startNode('A', databaseUrl, redisUrl), await startNode('B', databaseUrl, redisUrl)];

  progress(`registering ${SOCKETS} accounts in ${SOCKETS / ROOM_SIZE} rooms of ${ROOM_SIZE}`);
  const tenant = await control.tenant();
  const accounts: Array<{ id: string; token: string }> = [];
  for (let i = 0; i < SOCKETS; i++) accounts.push(await tenant.account());
  const rooms: string[] = [];
  for (let r = 0; r < SOCKETS / ROOM_SIZE; r++) {
    const members = accounts.slice(r * ROOM_SIZE, (r + 1) * ROOM_SIZE);
    const res = await call(a.url, 'POST', '/api/v1/rooms', {
      token: members[0]!.token,
      body: { type: 'GROUP', name: `Bench ${r}`, memberIds: members.slice(1).map((m) => m.id) },
    });
    if (res.status !== 201) throw new Error(`create room: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    rooms.push(res.body.data.id as string);
  }
  await sleep(500); // room.created reaches the log before anyone connects

  const rssBefore = [await rssBytes(a.child.pid!), await rssBytes(b.child.pid!)];
  progress(`connecting ${SOCKETS} sockets (half to each node)`);
  let measuring = false;
  const latencies: number[] = [];
  const sockets: Socket[] = [];
  const connectOne = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const node = i % 2 === 0 ? a : b;
      const socket: Socket = {
        client: new Client({
          webSocketFactory: () => new WebSocket(`${node.url.replace('http', 'ws')}/ws`) as never,
          connectHeaders: { Authorization: `Bearer ${accounts[i]!.token}` },
          reconnectDelay: 0,
          debug: () => undefined,
        }),
        roomIndex: Math.floor(i / ROOM_SIZE),
        seqs: [],
        messageIds: new Set(),
      };
      socket.client.onConnect = () => {
        socket.client.subscribe('/user/queue/events', (m: IMessage) => {
          const received = Date.now();
          const event = JSON.parse(m.body) as {
            seq: number;
            topic: string;
            createdAt: string;
            payload: { messageId?: string; message?: { text?: string } };
          };
          socket.seqs.push(event.seq);
          if (event.topic !== 'message.created') return;
          socket.messageIds.add(event.payload.messageId!);
          if (!measuring) return;
          latencies.push(received - Date.parse(event.createdAt));
          bodies.bytes += Buffer.byteLength(m.body);
          bodies.count++;
          if (!event.payload.message?.text?.startsWith('measured ')) bodies.withoutText++;
        });
        resolve();
      };
      socket.client.onStompError = (f) => reject(new Error(`socket ${i}: ${f.headers.message}`));
      socket.client.activate();
      sockets.push(socket);
    });
  for (let i = 0; i < SOCKETS; i += 50) await Promise.all(Array.from({ length: Math.min(50, SOCKETS - i) }, (_, k) => connectOne(i + k)));
  await sleep(1_000);
  const rssAfter = [await rssBytes(a.child.pid!), await rssBytes(b.child.pid!)];

  const sendRound = async (count: number, label: string): Promise<string[]> => {
    const ids: string[] = [];
    for (let k = 0; k < count; k++) {
      const r = k % rooms.length;
      const sender = accounts[r * ROOM_SIZE + (k % ROOM_SIZE)]!;
      const res = await call(a.url, 'POST', `/api/v1/rooms/${rooms[r]}/messages`, { token: sender.token, body: { text: `${label} ${k}` } });
      if (res.status !== 201) throw new Error(`send: HTTP ${res.status}`);
      ids.push(res.body.data.id as string);
      await sleep(SEND_GAP_MS);
    }
    return ids;
  };
  progress(`warm-up: ${WARMUP_MESSAGES} messages`);
  await sendRound(WARMUP_MESSAGES, 'warm-up');
  await sleep(500);
  progress(`measuring: ${MESSAGES} messages through node A, each to ${ROOM_SIZE} sockets`);
  const requestsBefore = (await chatRequests(a)) + (await chatRequests(b));
  measuring = true;
  const started = performance.now();
  const sent = await sendRound(MESSAGES, 'measured');
  const expected = MESSAGES * ROOM_SIZE;
  for (let i = 0; i < 100 && latencies.length < expected; i++) await sleep(100);
  measuring = false;
  const requestsMeasured = (await chatRequests(a)) + (await chatRequests(b)) - requestsBefore;
  const seconds = (performance.now() - started) / 1000;
  // Where the time goes: from the event row's creation to the relay's transaction (published_at is its now()).
  const { rows: lag } = await control.db.query<{ p50: number; p99: number }>(
    `select percentile_cont(0.5) within group (order by extract(epoch from published_at - created_at) * 1000) as p50,
            percentile_cont(0.99) within group (order by extract(epoch from published_at - created_at) * 1000) as p99
       from outbox where topic = 'message.created' and payload->>'messageId' = any($1::text[])`,
    [sent],
  );

  // Every socket has every message of its room, and its seqs have no gap and no repeat.
  const sentByRoom = new Map<number, string[]>();
  sent.forEach((id, k) => sentByRoom.set(k % rooms.length, [...(sentByRoom.get(k % rooms.length) ?? []), id]));
  const missing = sockets.reduce((n, s) => n + (sentByRoom.get(s.roomIndex) ?? []).filter((id) => !s.messageIds.has(id)).length, 0);
  const gapped = sockets.filter((s) => s.seqs.some((seq, i) => i > 0 && seq !== s.seqs[i - 1]! + 1)).length;

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
  for (let k = 0; k < MESSAGES; k++) {
    await pub.publish('bench:baseline', String(performance.now()));
    await sleep(SEND_GAP_MS);
  }
  await sleep(200);

  for (const s of sockets) void s.client.deactivate();
  const sorted = [...latencies].sort((x, y) => x - y);
  const baseSorted = [...base].sort((x, y) => x - y);
  const p99 = percentile(sorted, 99);
  process.stdout.write(
    `\nRealtime fan-out: commit (the event row's created_at) to MESSAGE receipt, 2 nodes, ${SOCKETS.toLocaleString('en')} sockets\n\n`,
  );
  process.stdout.write(
    table(
      ['measure', 'samples', 'p50 ms', 'p99 ms', 'max ms', 'goal'],
      [
        [
          'commit -> receipt (STOMP over ws, via node B and A)',
          String(sorted.length),
          ms(percentile(sorted, 50)),
          ms(p99),
          ms(sorted[sorted.length - 1] ?? 0),
          `p99 <= ${GOAL_P99_MS} ms: ${p99 <= GOAL_P99_MS ? 'met' : 'NOT met'}`,
        ],
        ['  of which: commit -> relay transaction start', String(sent.length), ms(Number(lag[0]!.p50)), ms(Number(lag[0]!.p99)), '-', '-'],
        [
          'baseline: Redis PUBLISH -> subscriber',
          String(baseSorted.length),
          ms(percentile(baseSorted, 50)),
          ms(percentile(baseSorted, 99)),
          ms(baseSorted[baseSorted.length - 1] ?? 0),
          '-',
        ],
      ],
    ) + '\n',
  );
  const delta = rssAfter[0]! - rssBefore[0]! + (rssAfter[1]! - rssBefore[1]!);
  process.stdout.write(
    `\ndeliveries: ${latencies.length} of ${expected} measured (${(latencies.length / seconds).toFixed(0)}/s), ${missing} missing, ${gapped} sockets with a seq gap\n` +
      `event bytes per delivery: ${(bodies.bytes / Math.max(1, bodies.count)).toFixed(0)} (message.created MESSAGE body with the message view; ` +
      `${bodies.withoutText} deliveries without the message text)\n` +
      `chat HTTP requests answered by both nodes while measuring: ${requestsMeasured} for ${sent.length} sends and ${latencies.length} deliveries ` +
      `(${((requestsMeasured - sent.length) / Math.max(1, latencies.length)).toFixed(3)} per delivery besides the sends)\n` +
      `memory: node RSS ${(rssBefore[0]! / 2 ** 20).toFixed(1)} + ${(rssBefore[1]! / 2 ** 20).toFixed(1)} MiB before, ` +
      `${(rssAfter[0]! / 2 ** 20).toFixed(1)} + ${(rssAfter[1]! / 2 ** 20).toFixed(1)} MiB with ${SOCKETS} sockets open: ` +
      `${(delta / SOCKETS / 1024).toFixed(1)} KiB per connection (RSS delta / sockets)\n`,
  );
  return missing === 0 && gapped === 0 && bodies.withoutText === 0 && requestsMeasured === sent.length ? 0 : 1;
}

await runBenchmark(main);
