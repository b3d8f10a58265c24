// Ends the local servers this process started when it dies without stopping them (kill -9, OOM kill): a small
// watchdog process in its own session holds a pipe from this one. When the pipe closes (this process is gone, for
// whatever reason) it stops every server still registered: a graceful signal first, a hard one after 20 s.
import { spawn } from 'node:child_process';

/** Runs with `node -e`, so it needs no file of its own next to the compiled code. */
const watchdogSource = `
process.title = 'platform-watchdog';
const fs = require('node:fs');
const watched = new Map();
const running = (pid) => {
  try { return fs.readFileSync('/proc/' + pid + '/stat', 'utf8').replace(/^.*\\) /s, '')[0] !== 'Z'; }
  catch { if (fs.existsSync('/proc')) return false; try { process.kill(pid, 0); return true; } catch { return false; } }
};
const named = (pid, name) => {
  try { return fs.readFileSync('/proc/' + pid + '/cmdline', 'utf8').replace(/\\0/g, ' ').includes(name); } catch { return !fs.existsSync('/proc'); }
};
let buffer = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  for (let i = buffer.indexOf('\\n'); i >= 0; i = buffer.indexOf('\\n')) {
    const [command, pid, name, soft, hard] = buffer.slice(0, i).split(' ');
    buffer = buffer.slice(i + 1);
    if (command === 'watch') watched.set(Number(pid), { name: decodeURIComponent(name), soft, hard });
    else if (command === 'forget') watched.delete(Number(pid));
  }
});
let reaping = false;
const reap = () => {
  if (reaping) return;
  reaping = true;
  const left = [...watched].filter(([pid, w]) => running(pid) && named(pid, w.name));
  for (const [pid, w] of left) { try { process.kill(pid, w.soft); } catch {} }
  const since = Date.now();
  setInterval(() => {
    const still = left.filter(([pid]) => running(pid));
    if (still.length === 0) process.exit(0);
    if (Date.now() - since > 20000) {
      for (const [pid, w] of still) { try { process.kill(pid, w.hard); } catch {} }
      process.exit(0);
    }
  }, 100);
};
process.stdin.on('end', reap);
process.stdin.on('error', reap);
process.on('SIGTERM', reap);
process.on('SIGINT', () => {});
process.on('SIGHUP', () => {});
`;

export interface ProcessGuard {
  /** The watchdog's pid (reported in runtime.json). */
  pid: number | undefined;
  /**
   * Registers a server to stop, with `soft` and then `hard`, should this process die first; `marker` is a part of its
   * command line (its data folder, its port), so that a pid reused by another program is never signalled.
   */
  watch(pid: number, marker: string, soft: NodeJS.Signals, hard: NodeJS.Signals): void;
  /** The server was stopped normally. */
  forget(pid: number): void;
  /** Ends the watchdog (after every server was forgotten, it stops nothing). */
  close(): void;
}

export function startProcessGuard(): ProcessGuard {
  const child = spawn(process.execPath, ['-e', watchdogSource], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  child.unref();
  const stdin = child.stdin!;
  // Neither the watchdog nor its pipe keeps this process alive; the pipe closes when this process ends.
  (stdin as unknown as { unref?: () => void }).unref?.();
  stdin.on('error', () => undefined);
  const write = (line: string) => {
    if (!stdin.destroyed && stdin.writable) stdin.write(`${line}\n`);
  };
  return {
    pid: child.pid,
    watch: (pid, marker, soft, hard) => write(`watch ${pid} ${encodeURIComponent(marker)} ${soft} ${hard}`),
    forget: (pid) => write(`forget ${pid}`),
    close: () => stdin.end(),
  };
}
