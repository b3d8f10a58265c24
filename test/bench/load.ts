// Load generator of the benchmark, a node process of its own (forked by tasks.ts), so that the client's work (HTTP
// parsing, pg result parsing) never runs on the measured server's event loop. The same process drives both the
// HTTP load against the platform and the baseline issued directly through the pg driver.
import { performance } from 'node:perf_hooks';
import { selectPage } from '../../src/core/crm/queries.js';
import { createSqlPool } from '../../src/platform/db/sql.js';
import { newId } from '../../src/platform/ids.js';
import { HttpConnection, rawRequest } from './http-client.js';
import { pageSql, RAW_SEND_SQL, type LoadTask, type RawResult } from './tasks.js';

const databaseUrl = process.env.BENCH_DATABASE_URL;
if (!databaseUrl) throw new Error('BENCH_DATABASE_URL is not set');
// The same pool factory (and so the same size, 20, and type parsers) as the platform's hot-path pool.
const pool = createSqlPool(databaseUrl);

type Op = (slot: number) => Promise<boolean>;

/** Closed loop: `concurrency` slots each issue operations one after another until `requests` ran or capMs passed. */
async function closedLoop(concurrency: number, requests: number, capMs: number, op: Op, errs: { first?: string }): Promise<RawResult> {
  const latencies = new Float64Array(requests);
  let next = 0;
  let errors = 0;
  const started = performance.now();
  const deadline = started + capMs;
  const slot = async (k: number) => {
    while (next < requests && performance.now() < deadline) {
      const i = next++;
      const t0 = performance.now();
      try {
        if (!(await op(k))) errors++;
      } catch (err) {
        errors++;
        errs.first ??= String(err);
      }
      latencies[i] = performance.now() - t0;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, k) => slot(k)));
  const elapsedMs = performance.now() - started;
  return { latencies: latencies.slice(0, next), errors, firstError: errs.first, elapsedMs };
}

/**
 * Open loop: request i is due at start + i / rate, whatever happened to the others; at most `maxInFlight` run at
 * once and a due request waits for a free slot. Latency runs from the due time, so a server that falls behind is
 * charged for the queue it causes (no coordinated omission).
 */
async function openLoop(rate: number, durationMs: number, maxInFlight: number, op: Op, errs: { first?: string }): Promise<RawResult> {
  const total = Math.max(1, Math.floor((rate * durationMs) / 1000));
  const latencies = new Float64Array(total);
  const free = Array.from({ length: maxInFlight }, (_, k) => maxInFlight - 1 - k);
  let due = 0; // next request to start
  let done = 0;
  let errors = 0;
  const started = performance.now();
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const pump = () => {
      const now = performance.now();
      while (due < total && free.length > 0 && started + (due * 1000) / rate <= now) {
        const i = due++;
        const slot = free.pop()!;
        const dueAt = started + (i * 1000) / rate;
        op(slot)
          .then(
            (ok) => {
              if (!ok) errors++;
            },
            (err: unknown) => {
              errors++;
              errs.first ??= String(err);
            },
          )
          .finally(() => {
            latencies[i] = performance.now() - dueAt;
            free.push(slot);
            done++;
            if (done === total) {
              clearTimeout(timer);
              resolve({ latencies, errors, firstError: errs.first, elapsedMs: performance.now() - started });
            } else pump();
          });
      }
      if (due < total && free.length > 0) {
        clearTimeout(timer);
        timer = setTimeout(pump, Math.max(0, started + (due * 1000) / rate - performance.now()));
      }
    };
    pump();
  });
}

function operation(task: LoadTask, errs: { first?: string }): { op: Op; close: () => void } {
  switch (task.kind) {
    case 'http': {
      const prepared = task.targets.map((t) => rawRequest(t.url, t.method, t.headers, t.body));
      const connections = new Map<number, HttpConnection>();
      const expect = task.expect;
      let counter = Date.now();
      return {
        op: async (slot) => {
          const target = task.unique
            ? (({ url, method, headers, body }) => rawRequest(url.replace('{n}', String(counter++)), method, headers, body))(
                task.targets[slot % task.targets.length]!,
              )
            : prepared[slot % prepared.length]!;
          let connection = connections.get(slot);
          if (!connection) connections.set(slot, (connection = new HttpConnection(target.host, target.port)));
          const res = await connection.request(target.bytes);
          if (res.status === expect) return true;
          errs.first ??= `HTTP ${res.status}: ${res.body.slice(0, 200)}`;
          return false;
        },
        close: () => {
          for (const c of connections.values()) c.close();
        },
      };
    }
    case 'sql-send':
      // A raw insert of the same row (see RAW_SEND_SQL), with the parameters MessageService.send passes.
      return {
        op: async (slot) => {
          const { rows } = await pool.query(RAW_SEND_SQL, [
            newId(),
            task.roomIds[slot % task.roomIds.length],
            task.accountId,
            task.text,
            new Date(),
            null,
          ]);
          return rows.length === 1 && rows[0].id !== null;
        },
        close: () => undefined,
      };
    case 'sql-page': {
      const sql = pageSql(task.beforeSeq !== null);
      const params = task.beforeSeq !== null ? [task.roomId, task.limit + 1, task.beforeSeq] : [task.roomId, task.limit + 1];
      return { op: async () => (await pool.query(sql, params)).rows.length === task.limit + 1, close: () => undefined };
    }
    case 'sql-replay':
      // The statements one request ran on the platform's pool, one after another as the service ran them.
      return {
        op: async () => {
          for (const s of task.statements) await pool.query(s.text, s.values);
          return true;
        },
        close: () => undefined,
      };
    case 'sql-crm-page': {
      const part = { workspaceId: task.workspaceId, environment: task.environment };
      return {
        op: async () => (await selectPage(pool, part, task.resource, { limit: task.limit })).length === task.limit + 1,
        close: () => undefined,
      };
    }
  }
}

async function run(task: LoadTask): Promise<RawResult> {
  const errs: { first?: string } = {};
  const { op, close } = operation(task, errs);
  try {
    if (task.warmup > 0) await closedLoop(task.concurrency, task.warmup, task.capMs, op, errs);
    errs.first = undefined;
    if (task.rate !== undefined) return await openLoop(task.rate, task.capMs, task.concurrency, op, errs);
    return await closedLoop(task.concurrency, task.requests, task.capMs, op, errs);
  } finally {
    close();
  }
}

// Stopped by the benchmark through IPC; a signal to the whole process group is the benchmark's to handle.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
process.on('disconnect', () => process.exit(0));

process.on('message', (msg: { id: number; task: LoadTask | 'cpu' | null }) => {
  if (msg.task === null) {
    void pool.end().then(() => process.disconnect());
    return;
  }
  if (msg.task === 'cpu') {
    const u = process.cpuUsage();
    process.send!({ id: msg.id, result: (u.user + u.system) / 1000 });
    return;
  }
  run(msg.task).then(
    (result) => process.send!({ id: msg.id, result }),
    (err: unknown) => process.send!({ id: msg.id, error: String(err) }),
  );
});
