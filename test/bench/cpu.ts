// CPU time per process group on Linux (from /proc), to say where a request's CPU goes: the platform (this process),
// its PostgreSQL server processes, redis-server and the load generator. Elsewhere the figures are left out.
import { readdirSync, readFileSync } from 'node:fs';

const ticksPerSecond = 100; // USER_HZ on Linux

interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  /** utime + stime, in clock ticks. */
  ticks: number;
}

function readProcs(): Proc[] | null {
  let names: string[];
  try {
    names = readdirSync('/proc').filter((n) => /^\d+$/.test(n));
  } catch {
    return null;
  }
  const procs: Proc[] = [];
  for (const n of names) {
    try {
      const stat = readFileSync(`/proc/${n}/stat`, 'latin1');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      procs.push({ pid: Number(n), ppid: Number(fields[1]), comm, ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      /* the process ended meanwhile */
    }
  }
  return procs;
}

/** The processes below `pid`, children first. */
function descendantsOf(procs: Proc[], pid: number): Proc[] {
  const children = new Map<number, Proc[]>();
  for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
  const below = (parent: number): Proc[] => (children.get(parent) ?? []).flatMap((c) => [c, ...below(c.pid)]);
  return below(pid);
}

export interface CpuSample {
  /** Milliseconds of CPU used so far by each group. */
  platform: number;
  postgres: number;
  redis: number;
  load: number;
}

/** CPU used so far by this process, its PostgreSQL and redis-server descendants, and the process `loadPid`. */
export function cpuSample(loadPid: number | undefined): CpuSample | null {
  const procs = readProcs();
  if (!procs) return null;
  const mine = descendantsOf(procs, process.pid);
  const ms = (list: Proc[]) => (list.reduce((t, p) => t + p.ticks, 0) * 1000) / ticksPerSecond;
  const self = procs.find((p) => p.pid === process.pid);
  const load = procs.find((p) => p.pid === loadPid);
  return {
    platform: self ? ms([self]) : NaN,
    postgres: ms(mine.filter((p) => p.comm.startsWith('postgres'))),
    redis: ms(mine.filter((p) => p.comm.startsWith('redis'))),
    load: load ? ms([load]) : NaN,
  };
}

export function cpuDelta(a: CpuSample, b: CpuSample): CpuSample {
  return { platform: b.platform - a.platform, postgres: b.postgres - a.postgres, redis: b.redis - a.redis, load: b.load - a.load };
}

/** CPU milliseconds used so far by each of this process's descendants that `groupOf` names a group for. */
export function cpuOfDescendants(groupOf: (pid: number, comm: string) => string | undefined): Map<number, { group: string; ms: number }> {
  const out = new Map<number, { group: string; ms: number }>();
  for (const p of descendantsOf(readProcs() ?? [], process.pid)) {
    const group = groupOf(p.pid, p.comm);
    if (group) out.set(p.pid, { group, ms: (p.ticks * 1000) / ticksPerSecond });
  }
  return out;
}

/** CPU milliseconds per group between two samples; a process that started between them counts from its start. */
export function cpuByGroupBetween(
  from: Map<number, { group: string; ms: number }>,
  to: Map<number, { group: string; ms: number }>,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const [pid, { group, ms }] of to) out.set(group, (out.get(group) ?? 0) + ms - (from.get(pid)?.ms ?? 0));
  return out;
}
