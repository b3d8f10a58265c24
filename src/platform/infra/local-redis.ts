// Starts a redis-server child process on a free port when no REDIS_URL is given.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { freePort } from './free-port.js';

export interface LocalRedis {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

/** Written beside the Redis data when the server starts, so the next start finds a server left running. */
export const redisPidFile = (dataDir: string) => resolve(join(dataDir, 'redis', 'redis-server.pid'));

export class RedisMissingError extends Error {
  constructor() {
    super(
      'redis-server was not found on PATH. Install it (Debian: apt-get install redis-server; `make run` does this as root) ' +
        'or set REDIS_URL to an existing Redis.',
    );
  }
}

/**
 * `databases`: how many logical databases the server offers (Redis' default is 16). `persistence: false` keeps
 * nothing on disk (a test's throw-away server); by default queued jobs survive a restart (append-only file).
 */
export async function startLocalRedis(
  dataDir: string,
  options: { port?: number; databases?: number; persistence?: boolean } = {},
): Promise<LocalRedis> {
  if (spawnSync('redis-server', ['--version']).error) throw new RedisMissingError();
  const dir = resolve(join(dataDir, 'redis'));
  await mkdir(dir, { recursive: true });
  const port = options.port ?? (await freePort());
  const appendOnly = options.persistence === false ? 'no' : 'yes';
  const child = spawn(
    'redis-server',
    [
      ...['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', appendOnly, '--save', '', '--protected-mode', 'yes'],
      ...(options.databases !== undefined ? ['--databases', String(options.databases)] : []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  if (child.pid !== undefined) await writeFile(redisPidFile(dataDir), `${child.pid}\n`);
  await waitForReady(child, port);
  return {
    url: `redis://127.0.0.1:${port}`,
    pid: child.pid,
    stop: async () => {
      await stopChild(child);
      await rm(redisPidFile(dataDir), { force: true });
    },
  };
}

/** Resolves once the redis-server child says it accepts connections; rejects if it exits first. */
export function waitForReady(child: ChildProcess, port: number): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        child.stderr?.resume();
        resolvePromise();
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`redis-server on port ${port} exited with ${code}: ${output.slice(-500)}`)));
  });
}

/** Stops a redis-server child (SIGTERM) and resolves once it exited; one already ended by a signal has exited too. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolvePromise) => {
    child.once('exit', () => resolvePromise());
    child.kill('SIGTERM');
  });
}
