// What the benchmark's main thread asks of its load-generator worker (load.ts), and how.
import { Worker } from 'node:worker_threads';
import { messageColumns } from '../../src/chat/messages/views.js';
import type { Statement } from './capture.js';

interface Common {
  concurrency: number;
  /** Measured requests; the run stops earlier at capMs. */
  requests: number;
  /** Unmeasured requests run first at the same concurrency. */
  warmup: number;
  capMs: number;
}

export type LoadTask = Common &
  (
    | { kind: 'http-send'; baseUrl: string; token: string; roomIds: string[]; text: string }
    | { kind: 'sql-send'; accountId: string; roomIds: string[]; text: string }
    | { kind: 'http-page'; baseUrl: string; token: string; roomId: string; cursor: string | null }
    | { kind: 'sql-page'; roomId: string; beforeSeq: number | null; limit: number }
    | { kind: 'sql-replay'; statements: Statement[] }
    | { kind: 'http-get'; url: string; headers: Record<string, string> }
    | { kind: 'sql-crm-page'; workspaceId: string; environment: 'live'; resource: 'leads'; limit: number }
  );

/** One measured run as the worker reports it: every request's latency in milliseconds. */
export interface RawResult {
  latencies: Float64Array;
  errors: number;
  firstError: string | undefined;
  elapsedMs: number;
}

export interface LoadResult {
  count: number;
  errors: number;
  firstError: string | undefined;
  /** Completed requests per second of measured wall time. */
  throughput: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
}

/** Merges one or more runs of the same case (e.g. interleaved rounds) into one summary. */
export function summarize(runs: RawResult[]): LoadResult {
  const count = runs.reduce((n, r) => n + r.latencies.length, 0);
  const all = new Float64Array(count);
  let at = 0;
  for (const r of runs) {
    all.set(r.latencies, at);
    at += r.latencies.length;
  }
  all.sort();
  const pick = (q: number) => all[Math.min(count - 1, Math.floor(q * count))] ?? NaN;
  const elapsedMs = runs.reduce((t, r) => t + r.elapsedMs, 0);
  return {
    count,
    errors: runs.reduce((n, r) => n + r.errors, 0),
    firstError: runs.find((r) => r.firstError !== undefined)?.firstError,
    throughput: (count / elapsedMs) * 1000,
    p50: pick(0.5),
    p99: pick(0.99),
  };
}

/**
 * The page query of MessageService.scroll for a newest page (no cursor) or a `before` page, without the
 * topLevelOnly filter: the service builds it inline, so it is restated here with the same columns.
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

export interface LoadWorker {
  run(task: LoadTask): Promise<RawResult>;
  close(): Promise<void>;
}

export function startLoadWorker(databaseUrl: string): LoadWorker {
  const worker = new Worker(new URL('./load.js', import.meta.url), { workerData: { databaseUrl } });
  let nextId = 0;
  const pending = new Map<number, { resolve: (r: RawResult) => void; reject: (e: Error) => void }>();
  worker.on('message', (msg: { id: number; result?: RawResult; error?: string }) => {
    const p = pending.get(msg.id);
    pending.delete(msg.id);
    if (msg.error !== undefined) p?.reject(new Error(msg.error));
    else p?.resolve(msg.result!);
  });
  worker.on('error', (err) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  });
  return {
    run(task) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ id, task });
      });
    },
    async close() {
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage({ id: -1, task: null });
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, 5_000).unref());
      await Promise.race([exited, timeout]);
      await worker.terminate();
    },
  };
}
