// WORKERS=2: the primary serves METRICS_PORT and a scrape sums both workers' counters. Requests go out on a new
// connection each, which the primary deals to the workers in turn, so each worker counts about half of them.
import { request } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../src/platform/infra/free-port.js';
import { startChildPlatform, type ChildPlatform } from '../../support/child-platform.js';
import { isolatedInfra } from '../../support/platform.js';
import { eventually } from '../../helpers/expect.js';
import { sample, scrape } from './scrape.js';

const long = 120_000;
let infra: Awaited<ReturnType<typeof isolatedInfra>>;
let dataDir: string;
let child: ChildPlatform | undefined;
let metricsUrl: string;

beforeAll(async () => {
  infra = await isolatedInfra(10);
  dataDir = await mkdtemp(join(tmpdir(), 'platform-metrics-'));
  const metricsPort = await freePort();
  metricsUrl = `http://127.0.0.1:${metricsPort}`;
  child = await startChildPlatform({ dataDir, env: { DATABASE_URL: infra.databaseUrl, REDIS_URL: infra.redisUrl, WORKERS: '2', METRICS_PORT: String(metricsPort) } });
  // The first worker's chat listener is up before the other worker is: the primary opens the port once both serve.
  await eventually(async () => child!.output().includes('"metrics listener ready"'), 60_000);
}, long);
afterAll(async () => {
  if (child && child.proc.exitCode === null && child.proc.signalCode === null) {
    child.proc.kill('SIGTERM');
    await child.exited;
  }
  await infra?.drop();
  await rm(dataDir, { recursive: true, force: true });
}, long);

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

test('the primary aggregates both workers: the counter of 40 requests spread over them reads 40', async () => {
  const health = { listener: 'chat', operation: 'getHealth', status_class: '2xx' };
  const before = await scrape(metricsUrl);
  for (let i = 0; i < 40; i++) expect(await getOnNewConnection(`${child!.chatUrl}/healthz`)).toBe(200);
  const after = await scrape(metricsUrl);
  expect((sample(after, 'platform_http_requests_total', health) ?? 0) - (sample(before, 'platform_http_requests_total', health) ?? 0)).toBe(40);
  // Process metrics come from the workers too (the primary has no registry of its own to serve).
  expect(sample(after, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  const ready = await fetch(`${metricsUrl}/readyz`);
  expect([ready.status, await ready.json()]).toEqual([200, { status: 'ok', checks: { workers: 'ok' } }]);
}, long);
