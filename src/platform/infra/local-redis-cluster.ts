// A local Redis Cluster of redis-server processes on free loopback ports (three masters, no replicas), for tests of
// the platform on a cluster: every node is started with cluster mode on, redis-cli joins them and spreads the 16384
// slots over them, and the cluster is handed out once every node reports cluster_state:ok.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { freePort } from './free-port.js';
import { RedisMissingError, stopChild, waitForReady } from './local-redis.js';

const run = promisify(execFile);

export interface LocalRedisCluster {
  /** The cluster's URL (redis+cluster://127.0.0.1:<port>,...), every master a seed. */
  url: string;
  /** The masters' ports, in start order. */
  ports: number[];
  stop(): Promise<void>;
}

/** How long the nodes get to agree on the slot map after redis-cli assigned it. */
const settleTimeoutMs = 20_000;

export async function startLocalRedisCluster(dataDir: string, options: { masters?: number } = {}): Promise<LocalRedisCluster> {
  if (spawnSync('redis-server', ['--version']).error) throw new RedisMissingError();
  if (spawnSync('redis-cli', ['--version']).error)
    throw new Error('redis-cli was not found on PATH: it comes with redis-server (Debian: redis-tools)');
  const masters = options.masters ?? 3;
  if (masters < 3) throw new Error('a Redis Cluster needs at least three masters');
  const root = resolve(join(dataDir, 'redis-cluster'));
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.map(stopChild));
    await rm(root, { recursive: true, force: true });
  };
  try {
    const ports: number[] = [];
    for (let i = 0; i < masters; i++) {
      // The bus port is chosen too: the default (port + 10000) may be taken or beyond 65535 for a kernel-given port.
      const [port, busPort] = [await freePort(), await freePort()];
      const dir = join(root, String(port));
      await mkdir(dir, { recursive: true });
      const child = spawn(
        'redis-server',
        [
          ...['--port', String(port), '--cluster-port', String(busPort), '--bind', '127.0.0.1', '--dir', dir],
          ...['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '3000'],
          ...['--appendonly', 'no', '--save', '', '--protected-mode', 'yes'],
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      children.push(child);
      await waitForReady(child, port);
      ports.push(port);
    }
    const addresses = ports.map((p) => `127.0.0.1:${p}`);
    await run('redis-cli', ['--cluster', 'create', ...addresses, '--cluster-replicas', '0', '--cluster-yes']);
    await waitUntilOk(ports, masters);
    return { url: `redis+cluster://${addresses.join(',')}`, ports, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Every node knows every master and serves a complete slot map. */
async function waitUntilOk(ports: number[], masters: number): Promise<void> {
  const deadline = Date.now() + settleTimeoutMs;
  for (;;) {
    const infos = await Promise.all(ports.map(async (p) => (await run('redis-cli', ['-p', String(p), 'cluster', 'info'])).stdout));
    const ready = infos.every((info) => {
      const lines = info.split('\n').map((line) => line.trim());
      return lines.includes('cluster_state:ok') && lines.includes(`cluster_known_nodes:${masters}`);
    });
    if (ready) return;
    if (Date.now() > deadline) throw new Error(`the local Redis Cluster did not reach cluster_state:ok within ${settleTimeoutMs} ms`);
    await sleep(100);
  }
}
