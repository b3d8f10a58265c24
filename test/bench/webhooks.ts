// Benchmark of the webhook delivery engine against a local HTTPS receiver (a worker thread, certificate from a tiny
// CA): deliveries per second with signing and logging (outbox intake, queue, claim, HMAC, HTTPS POST, record),
// beside a baseline of raw signed POSTs to the same receiver at the same concurrency; p50/p99 from the commit of an
// event to its arrival at the receiver; and the lateness of retries against WEBHOOK_RETRY_SCHEDULE. Starts its own
// embedded PostgreSQL and redis-server in a temporary folder and removes them at the end.
// Run with `make bench-webhooks` (node dist/test/bench/webhooks.js). Prints tables; exits 0 when every delivery arrived.
import { createHmac, randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:https';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { createQueues } from '../../src/platform/queues.js';
import { createLogger } from '../../src/platform/logger.js';
import { svcEventTopic } from '../../src/core/webhooks/events.js';
import { call, startTestPlatform, testConfig, type TestPlatform } from '../support/platform.js';
import { createTinyCa } from '../support/tls-ca.js';
import { svcWorkspace } from '../support/workspace.js';
import { cleanups, ms, progress, rps, runBenchmark, scratchInfra, table } from './report.js';

const THROUGHPUT_EVENTS = 5_000;
const THROUGHPUT_ROUNDS = 3;
const WARMUP_EVENTS = 1_000;
const LATENCY_EVENTS = 400;
const LATENCY_RATE_PER_S = 100;
const RETRY_DELIVERIES = 100;
const RETRY_SCHEDULE = [0, 1, 2, 2, 2, 2];
const FAIL_ATTEMPTS = 3;
const CONCURRENCY = 64;
const THROUGHPUT_GOAL = 1_000;
const LATENESS_GOAL_MS = 1_000;

interface Arrival {
  path: string;
  deliveryId: string;
  eventId: string;
  attempt: number;
  at: number;
}

const now = () => performance.timeOrigin + performance.now();

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

class ReceiverThread {
  private constructor(
    private readonly worker: Worker,
    readonly port: number,
  ) {}

  static async start(keyPem: string, certPem: string): Promise<ReceiverThread> {
    const worker = new Worker(new URL('./webhook-receiver-thread.js', import.meta.url), {
      workerData: { keyPem, certPem, failAttempts: FAIL_ATTEMPTS },
    });
    const port = await new Promise<number>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', (m: { type: string; port: number }) => resolve(m.port));
    });
    return new ReceiverThread(worker, port);
  }

  take(): Promise<Arrival[]> {
    return new Promise((resolve) => {
      const onMessage = (m: { type: string; arrivals: Arrival[] }) => {
        if (m.type !== 'arrivals') return;
        this.worker.off('message', onMessage);
        resolve(m.arrivals);
      };
      this.worker.on('message', onMessage);
      this.worker.postMessage({ type: 'take' });
    });
  }

  /** 2xx answers per path since the last take. */
  answered(): Promise<Record<string, number>> {
    return new Promise((resolve) => {
      const onMessage = (m: { type: string; answered: Record<string, number> }) => {
        if (m.type !== 'answered') return;
        this.worker.off('message', onMessage);
        resolve(m.answered);
      };
      this.worker.on('message', onMessage);
      this.worker.postMessage({ type: 'answered' });
    });
  }

  /** Waits until `path` has answered `expected` deliveries 2xx since the last take. */
  async waitAnswered(path: string, expected: number, capMs = 180_000): Promise<void> {
    const deadline = Date.now() + capMs;
    for (;;) {
      const n = (await this.answered())[path] ?? 0;
      if (n >= expected) return;
      if (Date.now() > deadline) throw new Error(`only ${n} of ${expected} deliveries to ${path} arrived within ${capMs / 1000}s`);
      await sleep(50);
    }
  }

  async close(): Promise<void> {
    this.worker.postMessage({ type: 'close' });
    await Promise.race([new Promise((r) => this.worker.once('message', r)), sleep(2_000)]);
    await this.worker.terminate();
  }
}

function envelopeOf(workspaceId: string, i: number, event = 'lead.created') {
  return {
    environment: 'live',
    envelope: {
      id: `evt_${randomBytes(16).toString('hex')}`,
      event,
      occurred_at: new Date().toISOString(),
      workspace_id: workspaceId,
      api_version: 'v1',
      data: {
        id: `lead-${i}`,
        name: `Lead ${i}`,
        phone: null,
        email: `lead${i}@example.com`,
        source: 'bench',
        status: 'new',
        owner_id: null,
        created_at: new Date().toISOString(),
        custom_fields: {},
      },
    },
  };
}

/** Raw signed POSTs at a fixed concurrency: the HMAC and the HTTPS request, nothing else. */
async function baseline(port: number, caPem: string, total: number): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 256, ca: caPem });
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  let next = 0;
  const post = (i: number) =>
    new Promise<void>((resolve, reject) => {
      const body = JSON.stringify(envelopeOf('00000000-0000-4000-8000-000000000000', i));
      const signature = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/baseline',
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'x-svc-signature': signature,
            'x-svc-attempt': '1',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`baseline HTTP ${res.statusCode}`))));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const started = now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = next++; i < total; i = next++) await post(i);
    }),
  );
  const elapsed = now() - started;
  agent.destroy();
  return (total / elapsed) * 1000;
}

async function main(): Promise<number> {
  const { redisUrl } = await scratchInfra('webhooks-bench-');
  const ca = createTinyCa();
  const issued = ca.issue(['localhost', '127.0.0.1']);
  const caFile = join(tmpdir(), `webhook-bench-ca-${randomBytes(4).toString('hex')}.pem`);
  await writeFile(caFile, ca.certPem);
  const receiver = await ReceiverThread.start(issued.keyPem, issued.certPem);
  cleanups.push(() => receiver.close());

  const platform: TestPlatform = await startTestPlatform({
    services: ['workspace', 'workers'],
    outboxPollMs: 1_000,
    webhooks: {
      ...testConfig().webhooks,
      allowPrivateTargets: true,
      caFile,
      retrySchedule: RETRY_SCHEDULE,
      concurrency: CONCURRENCY,
      sweepMs: 5_000,
    },
  });
  cleanups.push(() => platform.stop());
  // What a change's commit does: ask for an outbox drain through the queue.
  const queues = createQueues(redisUrl, createLogger('silent'));
  cleanups.push(() => queues.close());

  const ws = await svcWorkspace(platform);
  const key = (await ws.key(['webhook.*'])).key;
  const hook = async (path: string, event: string) => {
    const res = await call(platform.workspaceUrl, 'POST', '/api/v1/webhooks', {
      headers: { authorization: `Bearer ${key}` },
      body: { name: path, url: `https://127.0.0.1:${receiver.port}${path}`, events: [event] },
    });
    if (res.status !== 201 || res.body.status !== 'Active')
      throw new Error(`webhook ${path}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };
  await hook('/ok', 'lead.created');
  const db = new pg.Pool({ connectionString: platform.databaseUrl, max: 4 });
  cleanups.push(() => db.end());

  const emitBatch = async (count: number, event = 'lead.created') => {
    const payloads = Array.from({ length: count }, (_, i) => JSON.stringify(envelopeOf(ws.id, i, event)));
    await db.query('insert into outbox (topic, payload) select $1, p::jsonb from unnest($2::text[]) p', [svcEventTopic, payloads]);
    queues.requestOutboxDrain();
    return now();
  };

  // 1. Throughput: a burst of events, committed at once, to one webhook.
  progress(`baseline: ${THROUGHPUT_EVENTS} raw signed POSTs at concurrency ${CONCURRENCY}`);
  await baseline(receiver.port, ca.certPem, WARMUP_EVENTS);
  const baselineRates: number[] = [];
  for (let r = 0; r < THROUGHPUT_ROUNDS; r++) baselineRates.push(await baseline(receiver.port, ca.certPem, THROUGHPUT_EVENTS));
  await receiver.take();

  progress(`warm-up: ${WARMUP_EVENTS} deliveries`);
  await emitBatch(WARMUP_EVENTS);
  await receiver.waitAnswered('/ok', WARMUP_EVENTS);
  await receiver.take();
  const engineRates: number[] = [];
  for (let r = 0; r < THROUGHPUT_ROUNDS; r++) {
    progress(`throughput round ${r + 1}/${THROUGHPUT_ROUNDS}: ${THROUGHPUT_EVENTS} events`);
    const committed = await emitBatch(THROUGHPUT_EVENTS);
    await receiver.waitAnswered('/ok', THROUGHPUT_EVENTS);
    const arrivals = await receiver.take();
    const last = Math.max(...arrivals.map((a) => a.at));
    engineRates.push((arrivals.length / (last - committed)) * 1000);
  }

  // 2. Commit to receiver: events committed one by one at a steady rate, each asking for a drain as a change does.
  progress(`latency: ${LATENCY_EVENTS} events at ${LATENCY_RATE_PER_S}/s`);
  const commits = new Map<string, number>();
  for (let i = 0; i < LATENCY_EVENTS; i++) {
    const payload = envelopeOf(ws.id, i);
    await db.query('insert into outbox (topic, payload) values ($1, $2)', [svcEventTopic, JSON.stringify(payload)]);
    commits.set(payload.envelope.id, now());
    queues.requestOutboxDrain();
    await sleep(1000 / LATENCY_RATE_PER_S);
  }
  await receiver.waitAnswered('/ok', LATENCY_EVENTS);
  const latencies = (await receiver.take()).filter((a) => commits.has(a.eventId)).map((a) => a.at - commits.get(a.eventId)!);

  // 3. Retries: deliveries whose first attempts fail, against the schedule.
  progress(`retries: ${RETRY_DELIVERIES} deliveries failing ${FAIL_ATTEMPTS} attempts (schedule ${RETRY_SCHEDULE.join(',')} s)`);
  await hook('/retry', 'deal.won');
  await emitBatch(RETRY_DELIVERIES, 'deal.won');
  await receiver.waitAnswered('/retry', RETRY_DELIVERIES);
  const retryArrivals = (await receiver.take()).filter((a) => a.path === '/retry');
  const byDelivery = new Map<string, Arrival[]>();
  for (const a of retryArrivals) byDelivery.set(a.deliveryId, [...(byDelivery.get(a.deliveryId) ?? []), a]);
  const lateness: number[] = [];
  for (const attempts of byDelivery.values()) {
    attempts.sort((a, b) => a.attempt - b.attempt);
    for (let k = 1; k < attempts.length; k++)
      lateness.push(attempts[k]!.at - attempts[k - 1]!.at - RETRY_SCHEDULE[attempts[k]!.attempt - 1]! * 1000);
  }

  const failures: string[] = [];
  if (latencies.length !== LATENCY_EVENTS) failures.push(`latency: ${latencies.length} of ${LATENCY_EVENTS} arrived`);
  if (byDelivery.size !== RETRY_DELIVERIES || [...byDelivery.values()].some((a) => a.length !== FAIL_ATTEMPTS + 1))
    failures.push('retries: not every delivery made its attempts');
  const engine = percentile(engineRates, 50);
  const base = percentile(baselineRates, 50);
  const out: string[] = [''];
  out.push('WEBHOOK DELIVERY BENCHMARK');
  out.push(
    `node ${process.version}, embedded PostgreSQL, local redis-server, ${availableParallelism()} CPU(s); HTTPS receiver in a worker thread; delivery concurrency ${CONCURRENCY}.`,
  );
  out.push('');
  out.push(
    `1. THROUGHPUT  ${THROUGHPUT_EVENTS} lead.created events committed at once to one webhook (${THROUGHPUT_ROUNDS} rounds after ${WARMUP_EVENTS} warm-up)`,
  );
  out.push(
    '   engine = outbox drain + intake, BullMQ job, claim, HMAC signing, HTTPS POST, delivery row recorded (the log); baseline = HMAC + HTTPS POST only.',
  );
  out.push(
    table(
      ['case', 'deliveries/s (median)', 'rounds', 'goal'],
      [
        ['engine', rps(engine), engineRates.map(rps).join(' / '), `>= ${THROUGHPUT_GOAL}`],
        ['baseline: raw signed POST loop', rps(base), baselineRates.map(rps).join(' / '), '-'],
        ['engine / baseline', `${(engine / base).toFixed(2)}x`, '', ''],
      ],
    ),
  );
  out.push('');
  out.push(
    `2. COMMIT TO RECEIVER  ${LATENCY_EVENTS} events committed one by one at ${LATENCY_RATE_PER_S}/s, each requesting an outbox drain (ms)`,
  );
  out.push(
    table(
      ['p50', 'p90', 'p99', 'max'],
      [[ms(percentile(latencies, 50)), ms(percentile(latencies, 90)), ms(percentile(latencies, 99)), ms(Math.max(...latencies))]],
    ),
  );
  out.push('');
  out.push(
    `3. RETRY LATENESS  attempt k arrival - attempt k-1 arrival - schedule delay, ${lateness.length} retries (ms; goal <= ${LATENESS_GOAL_MS})`,
  );
  out.push(table(['p50', 'p99', 'max'], [[ms(percentile(lateness, 50)), ms(percentile(lateness, 99)), ms(Math.max(...lateness))]]));
  out.push('');
  const goals = [
    `throughput ${engine >= THROUGHPUT_GOAL ? 'meets' : 'misses'} ${THROUGHPUT_GOAL}/s`,
    `retry lateness p99 ${percentile(lateness, 99) <= LATENESS_GOAL_MS ? 'meets' : 'misses'} ${LATENESS_GOAL_MS} ms`,
  ];
  out.push(`Goals: ${goals.join('; ')}.`);
  if (failures.length) out.push(`FAILURES: ${failures.join('; ')}`);
  process.stdout.write(`${out.join('\n')}\n`);
  return failures.length ? 1 : 0;
}

await runBenchmark(main);
