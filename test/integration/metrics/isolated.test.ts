// Metrics of work done by queue workers, on a database and Redis of their own (no other test file's workers take
// these jobs, so the counts land in the process under test): bot updates pending until a webhook takes them, webhook
// attempts by outcome and attempt number, the delivery queue's finished jobs; then, on the same infrastructure once
// that platform has stopped, a WORKERS=2 child whose primary sums both workers' counters.
import { createServer, request, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../src/platform/infra/free-port.js';
import { botCall, createBot, groupWith, resultOf, say, confirmJoined } from '../../helpers/bots.js';
import { eventually } from '../../helpers/expect.js';
import { startChildPlatform, type ChildPlatform } from '../../support/child-platform.js';
import { call, isolatedInfra, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { sample, scrape } from './scrape.js';
import { countIn, growth } from '../../helpers/metrics.js';

const long = 120_000;

/**
 * A scrape in which the series grew by at least 1 since `before`, undefined while it has not (for eventually()). By
 * growth, not by count: the registry belongs to the test process, which may have counted other files' deliveries; and
 * of one series named by all its labels, since a sample is the first series whose labels include those given.
 */
async function scrapeOnceGrown(
  metricsUrl: string,
  before: string,
  name: string,
  labels: Record<string, string>,
): Promise<string | undefined> {
  const text = await scrape(metricsUrl);
  return growth(before, text, name, labels) >= 1 ? text : undefined;
}
/** A wait that timed out, thrown again with the updates still pending and the bots' webhook state. */
async function rethrowWithPending(p: TestPlatform, err: unknown, also = ''): Promise<never> {
  const updates = await p.db.query('select bot_id, update_id, kind, created_at from bot_updates order by update_id');
  const bots = await p.db.query('select id, webhook_failures, webhook_retry_at, webhook_last_error_message from bots');
  throw new Error(`${(err as Error).message}${also}; still pending: ${JSON.stringify({ updates: updates.rows, bots: bots.rows })}`);
}
let infra: Awaited<ReturnType<typeof isolatedInfra>>;
beforeAll(async () => {
  infra = await isolatedInfra();
}, long);
afterAll(async () => {
  await infra?.drop();
}, long);

describe('webhook deliveries', () => {
  let p: TestPlatform;
  let receiver: Server;
  let answered = 0;
  beforeAll(async () => {
    p = await startTestPlatform({
      databaseUrl: infra.databaseUrl,
      redisUrl: infra.redisUrl,
      services: ['chat', 'workers'],
      metricsPort: 0,
      botWebhookAllowHttp: true,
      botWebhookAllowPrivate: true,
      botWebhookRetryBaseMs: 50,
      botWebhookRetryMaxMs: 200,
    });
    // Fails the first attempt, takes everything after it.
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(answered++ === 0 ? 500 : 200).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  }, long);
  afterAll(async () => {
    await new Promise((resolve) => receiver?.close(resolve));
    await p?.stop();
  }, long);

  test(
    'pending bot updates, webhook attempts by outcome and attempt, and the delivery queue move',
    async () => {
      const tenant = await p.tenant();
      const alice = await tenant.account();
      const bot = await createBot(p, tenant);
      const roomId = await groupWith(p, alice, [bot.accountId]);
      await confirmJoined(p, bot.token);
      expect(
        (await call(p.chatUrl!, 'PATCH', `/api/v1/bots/${bot.id}/rooms/${roomId}`, { token: alice.token, body: { readAll: true } })).status,
      ).toBe(200);
      const before = await scrape(p.metricsUrl!);

      await say(p, alice, roomId, 'waiting for a webhook');
      await eventually(async () => countIn(await scrape(p.metricsUrl!), 'platform_bot_updates_pending') >= 1, 10_000);

      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      resultOf(await botCall(p, bot.token, 'setWebhook', { url }));
      const after = await eventually(
        () =>
          scrapeOnceGrown(p.metricsUrl!, before, 'platform_webhook_deliveries_total', { kind: 'bot', outcome: 'succeeded', attempt: '2' }),
        10_000,
      ).catch((err) => rethrowWithPending(p, err, `; receiver answered ${answered}`));
      const delta = (name: string, labels: Record<string, string>) => growth(before, after, name, labels);
      expect(delta('platform_webhook_deliveries_total', { kind: 'bot', outcome: 'failed', attempt: '1' })).toBe(1);
      expect(delta('platform_webhook_deliveries_total', { kind: 'bot', outcome: 'succeeded', attempt: '2' })).toBe(1);
      expect(delta('platform_queue_jobs_finished_total', { queue: 'bot-webhooks', outcome: 'completed' })).toBeGreaterThanOrEqual(1);
      await eventually(async () => sample(await scrape(p.metricsUrl!), 'platform_bot_updates_pending') === 0, 10_000).catch((err) =>
        rethrowWithPending(p, err),
      );
    },
    long,
  );
});

/** GET on a connection of its own (no keep-alive agent), so each request may go to another worker. */
function getOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false, headers: { connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('WORKERS=2', () => {
  let dataDir: string;
  let child: ChildPlatform | undefined;
  let metricsUrl: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'platform-metrics-'));
    const metricsPort = await freePort();
    metricsUrl = `http://127.0.0.1:${metricsPort}`;
    child = await startChildPlatform({
      dataDir,
      env: { DATABASE_URL: infra.databaseUrl, REDIS_URL: infra.redisUrl, WORKERS: '2', METRICS_PORT: String(metricsPort) },
    });
    // The first worker's chat listener is up before the other worker is: the primary opens the port once both serve.
    await eventually(async () => child!.output().includes('"metrics listener ready"'), 60_000);
  }, long);
  afterAll(async () => {
    if (child && child.proc.exitCode === null && child.proc.signalCode === null) {
      child.proc.kill('SIGTERM');
      await child.exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  }, long);

  // Requests go out on a new connection each, which the primary deals to the workers in turn, so each worker counts
  // about half of them: a scrape of one worker alone would read about 20.
  test(
    'the primary aggregates both workers: the counter of 40 requests spread over them reads 40',
    async () => {
      const health = { listener: 'chat', operation: 'getHealth', status_class: '2xx' };
      const before = await scrape(metricsUrl);
      for (let i = 0; i < 40; i++) expect(await getOnNewConnection(`${child!.chatUrl}/healthz`)).toBe(200);
      const after = await scrape(metricsUrl);
      expect(growth(before, after, 'platform_http_requests_total', health)).toBe(40);
      // Process metrics come from the workers (the primary serves no registry of its own).
      expect(sample(after, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
      const ready = await fetch(`${metricsUrl}/readyz`);
      expect([ready.status, await ready.json()]).toEqual([200, { status: 'ok', checks: { workers: 'ok' } }]);
    },
    long,
  );
});
