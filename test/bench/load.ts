// Load generator of the benchmark, run in a worker thread so that the client's own work (fetch, pg result
// parsing) runs on its own event loop instead of the platform's. The same worker drives both the HTTP
// load against the platform and the baseline issued directly through the pg driver.
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { selectPage } from '../../src/partner/crm/records.js';
import { createSqlPool } from '../../src/platform/db/sql.js';
import { newId } from '../../src/platform/ids.js';
import { pageSql, RAW_SEND_SQL, type LoadTask, type RawResult } from './tasks.js';

const { databaseUrl } = workerData as { databaseUrl: string };
// The same pool factory (and so the same size, 20, and type parsers) as the platform's hot-path pool.
const pool = createSqlPool(databaseUrl);

/**
 * Runs `requests` operations with `concurrency` in flight, stopping early at `capMs`. Each slot k issues
 * its operations one after another; op returns false on a failed request.
 */
async function measure(
  concurrency: number,
  requests: number,
  capMs: number,
  op: (slot: number) => Promise<boolean>,
): Promise<RawResult> {
  const latencies = new Float64Array(requests);
  let next = 0;
  let errors = 0;
  let firstError: string | undefined;
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
        firstError ??= String(err);
      }
      latencies[i] = performance.now() - t0;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, k) => slot(k)));
  const elapsedMs = performance.now() - started;
  return { latencies: latencies.slice(0, next), errors, firstError, elapsedMs };
}

async function checked(res: Response, expected: number, lastError: { text?: string }): Promise<boolean> {
  const body = await res.text();
  if (res.status === expected) return true;
  lastError.text ??= `HTTP ${res.status}: ${body.slice(0, 200)}`;
  return false;
}

async function run(task: LoadTask): Promise<RawResult> {
  const lastError: { text?: string } = {};
  let op: (slot: number) => Promise<boolean>;
  switch (task.kind) {
    case 'http-send': {
      const body = JSON.stringify({ text: task.text });
      const headers = { authorization: `Bearer ${task.token}`, 'content-type': 'application/json' };
      const urls = task.roomIds.map((id) => `${task.baseUrl}/api/v1/rooms/${id}/messages`);
      op = async (slot) => checked(await fetch(urls[slot % urls.length]!, { method: 'POST', headers, body }), 201, lastError);
      break;
    }
    case 'sql-send': {
      // A raw insert of the same row (see RAW_SEND_SQL), with the parameters MessageService.send passes.
      op = async (slot) => {
        const { rows } = await pool.query(RAW_SEND_SQL, [newId(), task.roomIds[slot % task.roomIds.length], task.accountId, task.text, new Date(), null]);
        return rows.length === 1 && rows[0].id !== null;
      };
      break;
    }
    case 'http-page': {
      const headers = { authorization: `Bearer ${task.token}` };
      const url = `${task.baseUrl}/api/v1/rooms/${task.roomId}/messages${task.cursor ? `?before=${task.cursor}` : ''}`;
      op = async () => checked(await fetch(url, { headers }), 200, lastError);
      break;
    }
    case 'sql-page': {
      // The page query MessageService.scroll runs (limit + 1 rows to compute hasMore).
      const sql = pageSql(task.beforeSeq !== null);
      const params = task.beforeSeq !== null ? [task.roomId, task.limit + 1, task.beforeSeq] : [task.roomId, task.limit + 1];
      op = async () => (await pool.query(sql, params)).rows.length === task.limit + 1;
      break;
    }
    case 'sql-replay': {
      // The statements one request ran on the platform's pool, one after another as the service ran them.
      op = async () => {
        for (const s of task.statements) await pool.query(s.text, s.values);
        return true;
      };
      break;
    }
    case 'http-get': {
      op = async () => checked(await fetch(task.url, { headers: task.headers }), 200, lastError);
      break;
    }
    case 'sql-crm-page': {
      // The list query CrmService.list runs (limit + 1 rows to compute has_more).
      const part = { workspaceId: task.workspaceId, environment: task.environment };
      op = async () => (await selectPage(pool, part, task.resource, { limit: task.limit })).length === task.limit + 1;
      break;
    }
  }
  if (task.warmup > 0) await measure(task.concurrency, task.warmup, task.capMs, op);
  lastError.text = undefined;
  const result = await measure(task.concurrency, task.requests, task.capMs, op);
  result.firstError ??= lastError.text;
  return result;
}

parentPort!.on('message', (msg: { id: number; task: LoadTask | null }) => {
  if (msg.task === null) {
    void pool.end().then(() => parentPort!.close());
    return;
  }
  run(msg.task).then(
    (result) => parentPort!.postMessage({ id: msg.id, result }),
    (err: unknown) => parentPort!.postMessage({ id: msg.id, error: String(err) }),
  );
});
