// Before the local servers start: a PostgreSQL or redis-server left running on this DATA_DIR by an earlier platform
// process that ended without stopping it (kill -9 with its watchdog gone too) is stopped, with a warning naming it.
// While that earlier platform process still runs, the start is refused with a message naming both.
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Logger } from '../logger.js';

/** Running and not a zombie (a dead child its new parent has not reaped yet holds no files or ports). */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.replace(/^.*\) /s, '')[0] !== 'Z';
  } catch {
    if (existsSync('/proc')) return false;
    try {
      process.kill(pid, 0);
      return true;
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'EPERM';
    }
  }
}

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
}

function pidIn(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, 'utf8').split('\n')[0]?.trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The redis URL recorded in runtime.json by the previous start, if any. */
export function recordedRedisUrl(runtimeFile: string): string | undefined {
  try {
    const url = (JSON.parse(readFileSync(runtimeFile, 'utf8')) as { redisUrl?: unknown }).redisUrl;
    return typeof url === 'string' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The platform process recorded in runtime.json, when it still runs (and is not this process). */
function livingOwner(runtimeFile: string): number | undefined {
  try {
    const pid = Number((JSON.parse(readFileSync(runtimeFile, 'utf8')) as { pid?: unknown }).pid);
    if (!Number.isSafeInteger(pid) || pid === process.pid || !running(pid)) return undefined;
    return /node/.test(commandOf(pid)) ? pid : undefined;
  } catch {
    return undefined;
  }
}

export class DataDirInUseError extends Error {}

async function waitGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (running(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

export interface StaleServer {
  /** What the pid file belongs to, for messages: "PostgreSQL", "redis-server". */
  label: string;
  /** A part of the server's command line (its data folder, its port), so a reused pid of another program is never signalled. */
  marker: string;
  pidFile: string;
  soft: NodeJS.Signals;
  hard: NodeJS.Signals;
  /** Remove the pid file when its pid is no longer the server (PostgreSQL refuses to start beside a live pid). */
  removeStalePidFile: boolean;
}

export async function stopStaleServer(server: StaleServer, runtimeFile: string, dataDir: string, log: Logger): Promise<void> {
  const pid = pidIn(server.pidFile);
  if (pid === undefined) return;
  if (!running(pid) || !commandOf(pid).includes(server.marker)) {
    if (server.removeStalePidFile && running(pid)) {
      log.warn(
        { pidFile: server.pidFile, serverPid: pid, command: commandOf(pid) },
        `removing a stale ${server.label} pid file whose pid now belongs to another program`,
      );
      await rm(server.pidFile, { force: true });
    }
    return;
  }
  const owner = livingOwner(runtimeFile);
  if (owner !== undefined) {
    throw new DataDirInUseError(
      `DATA_DIR ${dataDir} is in use: platform process ${owner} is running with its ${server.label} (pid ${pid}). ` +
        'Stop that process first, or set another DATA_DIR.',
    );
  }
  log.warn(
    { serverPid: pid, command: commandOf(pid), dataDir },
    `stopping a ${server.label} (pid ${pid}) left running by an earlier platform process that ended without stopping it`,
  );
  try {
    process.kill(pid, server.soft);
  } catch {
    /* gone meanwhile */
  }
  if (await waitGone(pid, 30_000)) return;
  log.warn({ serverPid: pid }, `${server.label} (pid ${pid}) did not stop within 30 s; sending ${server.hard}`);
  try {
    process.kill(pid, server.hard);
  } catch {
    /* gone meanwhile */
  }
  if (!(await waitGone(pid, 10_000))) {
    throw new Error(`a ${server.label} left running on DATA_DIR ${dataDir} (pid ${pid}) could not be stopped; stop it by hand`);
  }
}
