// SIGTERM while Redis is down and stays down: the drain gives up on Redis at once instead of waiting for it until
// SHUTDOWN_TIMEOUT_MS, says so in one log line, prints no stack traces of the failed reconnections and exits within a
// few seconds.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freePort } from '../../../src/platform/infra/free-port.js';
import { startLocalRedis, type LocalRedis } from '../../../src/platform/infra/local-redis.js';
import { eventually } from '../../helpers/expect.js';
import { startChildPlatform, type ChildPlatform } from '../../support/child-platform.js';

const long = 180_000;
let dir: string;
let redis: LocalRedis;
let platform: ChildPlatform;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'platform-drain-redis-down-'));
  redis = await startLocalRedis(dir, { port: await freePort() });
  platform = await startChildPlatform({
    dataDir: join(dir, 'platform'),
    env: {
      DATABASE_URL: process.env.TEST_DATABASE_URL!,
      REDIS_URL: redis.url,
      SERVICES: 'chat,partner,workspace,workers',
      PARTNER_PORT: String(await freePort()),
      WORKSPACE_PORT: String(await freePort()),
      SHUTDOWN_TIMEOUT_MS: '25000',
      LOG_LEVEL: 'info',
    },
  });
  // The chat listener is ready first; the signal handlers are installed once every listener is, after the addresses.
  await eventually(async () => platform.output().includes('Workspace reference:'), 60_000, 50);
}, long);

afterAll(async () => {
  if (platform && platform.proc.exitCode === null && platform.proc.signalCode === null) {
    platform.proc.kill('SIGKILL');
    await platform.exited;
  }
  await redis?.stop().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

/** The log lines the platform printed as JSON (stack traces and other text left out). */
function jsonLines(): Array<{ msg?: string; dependency?: string }> {
  return platform
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg?: string; dependency?: string });
}

test(
  'SIGTERM with Redis gone: one line for Redis, no stack traces, exit 0 within a few seconds',
  async () => {
    await redis.stop();
    await eventually(async () => (await fetch(`${platform.chatUrl}/readyz`)).status === 503, 30_000, 100);
    // Long enough for the reconnection attempts of every connection to have begun failing.
    await new Promise((r) => setTimeout(r, 1_000));
    const before = platform.output().length;

    const started = performance.now();
    platform.proc.kill('SIGTERM');
    const exit = await platform.exited;
    const elapsed = performance.now() - started;

    expect({ ...exit, output: platform.output().slice(-4000) }).toMatchObject({ code: 0, signal: null });
    expect(elapsed).toBeLessThan(5_000);
    const during = platform.output().slice(before);
    expect(during).not.toContain('ECONNREFUSED');
    expect(during).not.toContain('shutdown did not finish');
    const gaveUp = jsonLines().filter((l) => l.msg === 'dependency unreachable at shutdown; not waiting for it');
    expect(gaveUp.map((l) => l.dependency)).toEqual(['redis']);
  },
  long,
);
