// What the benchmark asks of its load generator (load.ts), which runs as a separate node process so that the
// client's work never shares the measured server's event loop; and how rounds are summarised (medians).
import { fork, type ChildProcess } from 'node:child_process';
import { messageColumns } from '../../src/chat/base/message-views.js';
import type { Statement } from './capture.js';

export interface HttpTarget {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

interface Common {
  /** Requests in flight (closed loop), or the most in flight at once when `rate` is set. */
  concurrency: number;
  /** Measured requests; the run stops earlier at capMs. Ignored when `rate` is set. */
  requests: number;
  /** Unmeasured requests run first at the same concurrency. */
  warmup: number;
  capMs: number;
  /** Open loop: requests started at this many per second for capMs, latency counted from each one's start time. */
  rate?: number;
}

export type LoadTask = Common &
  (
    | {
        kind: 'http';
        targets: HttpTarget[];
        expect: number;
        /** Replace `{n}` in each URL by a running count (e.g. Matrix transaction ids). */ unique?: boolean;
      }
    | { kind: 'sql-send'; accountId: string; roomIds: string[]; text: string }
    | { kind: 'sql-page'; roomId: string; beforeSeq: number | null; limit: number }
    | { kind: 'sql-replay'; statements: Statement[] }
    | { kind: 'sql-crm-page'; workspaceId: string; environment: 'live'; resource: 'leads'; limit: number }
  );

/** One measured run as the load generator reports it: every request's latency in milliseconds. */
export interface RawResult {
  latencies: Float64Array;
  errors: number;
  firstError: string | undefined;
  elapsedMs: number;
}

/** Figures of one case over several rounds: each is the median of the rounds' own figures. */
export interface LoadResult {
  rounds: number;
  count: number;
  errors: number;
  firstError: string | undefined;
  /** Completed requests per second of measured wall time. */
  throughput: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
}

export function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function quantile(latencies: Float64Array, q: number): number {
  if (latencies.length === 0) return NaN;
  const sorted = Float64Array.from(latencies).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export interface RoundFigures {
  throughput: number;
  p50: number;
  p99: number;
}

export function figures(run: RawResult): RoundFigures {
  return {
    throughput: (run.latencies.length / run.elapsedMs) * 1000,
    p50: quantile(run.latencies, 0.5),
    p99: quantile(run.latencies, 0.99),
  };
}

/** The median over rounds of throughput, p50 and p99 of one case. */
export function summarize(runs: RawResult[]): LoadResult {
  const perRound = runs.map(figures);
  return {
    rounds: runs.length,
    count: runs.reduce((n, r) => n + r.latencies.length, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    firstError: runs.find((r) => r.firstError !== undefined)?.firstError,
    throughput: median(perRound.map((f) => f.throughput)),
    p50: median(perRound.map((f) => f.p50)),
    p99: median(perRound.map((f) => f.p99)),
  };
}

/** The median over rounds of a / b for one figure, each round's pair measured back to back. */
export function pairedRatio(a: RawResult[], b: RawResult[], figure: keyof RoundFigures): number {
  return median(a.map((run, i) => (b[i] ? figures(run)[figure] / figures(b[i]!)[figure] : NaN)));
}

/** The median over rounds of a - b for one latency figure (milliseconds). */
export function pairedDifference(a: RawResult[], b: RawResult[], figure: 'p50' | 'p99'): number {
  return median(a.map((run, i) => (b[i] ? figures(run)[figure] - figures(b[i]!)[figure] : NaN)));
}

/**
 * The page query of MessageService.scroll for a newest page (no cursor) or a `before` page, without the
 * topLevelOnly filter and the membership check the service folds into the same statement.
 */
export function pageSql(withBefore: boolean): string {
  const where = withBefore ? 'room_id = $1 and seq < $3' : 'room_id = $1';
  return `select ${messageColumns} from messages where ${where} order by seq desc limit $2`;
}

/**
 * The baseline of the send benchmark: a raw insert of the same message row through the driver, with the least
 * any send must do (the room's sequence bump, the row, its outbox event, only for a member). It is the send
 * statement of the first chat slice, frozen here on purpose: when the service's send gains bookkeeping
 * (unread, threads), the baseline stays put and the ratio shows what that bookkeeping costs.
 */
export const RAW_SEND_SQL = `
  with bump as (
    update rooms set last_seq = last_seq + 1, last_activity_at = $5
     where id = $2 and exists (select 1 from room_members where room_id = $2 and account_id = $3)
    returning last_seq
  ), msg as (
    insert into messages (id, room_id, seq, sender_id, type, text, client_message_id, created_at)
    select $1, $2, bump.last_seq, $3, 'TEXT', $4, $6, $5 from bump
    returning id, room_id, sender_id, seq
  ), event as (
    insert into outbox (topic, payload)
    select 'message.created', jsonb_build_object('roomId', room_id, 'messageId', id, 'senderId', sender_id, 'seq', seq) from msg
  )
  select m.id from bump b left join msg m on true`;

export interface LoadGenerator {
  /** The load process's pid. */
  pid: number | undefined;
  run(task: LoadTask): Promise<RawResult>;
  /** CPU time the load process has used so far (user + system, milliseconds). */
  cpuMs(): Promise<number>;
  close(): Promise<void>;
}

/** Starts load.js as a child node process talking over IPC. */
export function startLoadGenerator(databaseUrl: string): LoadGenerator {
  const child: ChildProcess = fork(new URL('./load.js', import.meta.url), [], {
    env: { ...process.env, BENCH_DATABASE_URL: databaseUrl },
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 0;
  const pending = new Map<number, { resolve: (r: any) => void; reject: (e: Error) => void }>();
  child.on('message', (msg: { id: number; result?: unknown; error?: string }) => {
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.error !== undefined) p?.reject(new Error(msg.error));
    else p?.resolve(msg.result);
  });
  child.on('exit', (code) => {
    for (const p of pending.values()) p.reject(new Error(`the load generator exited (code ${code})`));
    pending.clear();
  });
  const ask = <T>(task: LoadTask | 'cpu'): Promise<T> => {
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      child.send({ id, task });
    });
  };
  return {
    pid: child.pid,
    run: (task) => ask<RawResult>(task),
    cpuMs: () => ask<number>('cpu'),
    async close() {
      if (child.exitCode !== null || !child.connected) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.send({ id: -1, task: null });
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, 5_000).unref());
      await Promise.race([exited, timeout]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
