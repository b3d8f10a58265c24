// Runs the built platform (node dist/src/main.js) as a child process with its own DATA_DIR, as `make run` does:
// embedded PostgreSQL and redis-server started by the platform itself. For the fault tests (kill -9, SIGTERM).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../src/platform/infra/free-port.js';

export interface RuntimeRecord {
  databaseUrl: string;
  redisUrl: string;
  pid: number;
  watchdogPid?: number;
}

export interface ChildPlatform {
  proc: ChildProcess;
  pid: number;
  chatUrl: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  runtime(): RuntimeRecord;
  /** Resolves when the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ChildOptions {
  dataDir: string;
  chatPort?: number;
  env?: Record<string, string>;
}

/** Environment of the test run that must not reach the child (it starts its own servers). */
const dropped = ['DATABASE_URL', 'REDIS_URL', 'TEST_DATABASE_URL', 'TEST_REDIS_URL', 'WORKERS', 'SERVICES', 'LOG_LEVEL', 'NODE_OPTIONS'];

/** Spawns the platform; resolves with it once the chat listener is ready, rejects with its output if it exits first. */
export async function startChildPlatform(options: ChildOptions): Promise<ChildPlatform> {
  const port = options.chatPort ?? (await freePort());
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !dropped.includes(k)) env[k] = v;
  Object.assign(
    env,
    { DATA_DIR: options.dataDir, CHAT_PORT: String(port), SERVICES: 'chat,workers', SEND_RATE_LIMIT_PER_MINUTE: '1000000' },
    options.env,
  );
  const proc = spawn(process.execPath, [join(process.cwd(), 'dist/src/main.js')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.once('exit', (code, signal) => resolve({ code, signal })),
  );
  // Ready: the start logged it (at info), or the chat listener answers /healthz (any LOG_LEVEL).
  await new Promise<void>((resolve, reject) => {
    let probing = false;
    const deadline = Date.now() + 180_000;
    const timer = setInterval(() => {
      if (Date.now() > deadline) {
        clearInterval(timer);
        proc.kill('SIGKILL');
        reject(new Error(`platform not ready within 180 s:\n${out}`));
      } else if (out.includes('"chat listener ready"')) {
        clearInterval(timer);
        resolve();
      } else if (!probing) {
        probing = true;
        fetch(`http://127.0.0.1:${port}/healthz`).then(
          (res) => {
            probing = false;
            if (res.ok) {
              clearInterval(timer);
              resolve();
            }
          },
          () => (probing = false),
        );
      }
    }, 50);
    void exited.then(({ code, signal }) => {
      clearInterval(timer);
      reject(new Error(`platform exited during start (code ${code}, signal ${signal}):\n${out}`));
    });
  });
  return {
    proc,
    pid: proc.pid!,
    chatUrl: `http://127.0.0.1:${port}`,
    output: () => out,
    runtime: () => JSON.parse(readFileSync(join(options.dataDir, 'runtime.json'), 'utf8')) as RuntimeRecord,
    exited,
  };
}

/** Runs the platform expecting its start to fail; resolves with its exit code and output. */
export async function failingStart(options: ChildOptions): Promise<{ code: number | null; output: string }> {
  try {
    const child = await startChildPlatform(options);
    child.proc.kill('SIGTERM');
    await child.exited;
    throw new Error(`the platform started:\n${child.output()}`);
  } catch (err) {
    const message = (err as Error).message;
    const match = /^platform exited during start \(code (\S+), signal \S+\):\n([\s\S]*)$/.exec(message);
    if (!match) throw err;
    return { code: match[1] === 'null' ? null : Number(match[1]), output: match[2]! };
  }
}

/** Running and not a zombie (reparented children may wait to be reaped). */
export function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z';
  } catch {
    return false;
  }
}

export function pidInFile(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
