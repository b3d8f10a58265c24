// Reading the audit log: one workspace's entries of the last 30 days, newest first, filtered by key, status code
// and time range, in keyset pages on (time, id). Older entries are not shown even before the job deletes them.
import type { Queryable } from '../../platform/db/queryable.js';
import type { PruneTask } from '../../platform/queues.js';
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { isUuid } from '../../platform/ids.js';
import { workspaceErrors } from '../errors.js';
import type { Page } from '../keys/service.js';

export const retentionDays = 30;
const retentionMs = retentionDays * 86_400_000;

export interface AuditQuery {
  limit?: number;
  cursor?: string;
  key_id?: string;
  status_code?: number;
  from?: string;
  to?: string;
}

interface AuditRow {
  id: string;
  time: Date;
  key_id: string;
  ip: string;
  method: string;
  endpoint: string;
  status_code: number;
}

export type AuditView = ReturnType<typeof auditView>;

function auditView(row: AuditRow) {
  return {
    id: row.id,
    time: row.time.toISOString(),
    key_id: row.key_id,
    ip: row.ip,
    method: row.method,
    endpoint: row.endpoint,
    status_code: row.status_code,
  };
}

function parseCursor(raw: string): { time: string; id: string } {
  const c = decodeCursor(raw);
  if (!c || c.k !== 'audit' || typeof c.t !== 'string' || Number.isNaN(Date.parse(c.t)) || typeof c.i !== 'string' || !isUuid(c.i)) {
    throw workspaceErrors.invalid('query.cursor', 'is not a cursor of this list; pass next_cursor back unchanged');
  }
  return { time: c.t, id: c.i };
}

export async function listAuditLog(db: Queryable, workspaceId: string, query: AuditQuery, now: Date): Promise<Page<AuditView>> {
  const limit = query.limit ?? 50;
  const oldest = new Date(now.getTime() - retentionMs);
  const from = query.from !== undefined && Date.parse(query.from) > oldest.getTime() ? new Date(query.from) : oldest;
  const params: unknown[] = [workspaceId, from];
  let sql = 'select id, time, key_id, ip, method, endpoint, status_code from svc_audit_log where workspace_id = $1 and time >= $2';
  if (query.to !== undefined) {
    params.push(new Date(query.to));
    sql += ` and time < $${params.length}`;
  }
  if (query.key_id !== undefined) {
    params.push(query.key_id);
    sql += ` and key_id = $${params.length}`;
  }
  if (query.status_code !== undefined) {
    params.push(query.status_code);
    sql += ` and status_code = $${params.length}`;
  }
  if (query.cursor !== undefined) {
    const c = parseCursor(query.cursor);
    params.push(c.time, c.id);
    sql += ` and (time, id) < ($${params.length - 1}::timestamptz, $${params.length}::uuid)`;
  }
  params.push(limit + 1);
  sql += ` order by time desc, id desc limit $${params.length}`;
  const { rows } = await db.query<AuditRow>(sql, params);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(auditView),
    next_cursor: rows.length > limit && last ? encodeCursor({ k: 'audit', t: last.time.toISOString(), i: last.id }) : null,
  };
}

/** Deletes entries older than the retention; run hourly by the maintenance queue. */
export async function pruneAuditLog(db: Queryable, now: Date): Promise<number> {
  const { rowCount } = await db.query('delete from svc_audit_log where time < $1', [new Date(now.getTime() - retentionMs)]);
  return rowCount ?? 0;
}

/** The audit log keeps 30 days; pruned hourly on the maintenance queue. */
export function auditPruneTask(db: Queryable): PruneTask {
  return { scheduler: 'svc-audit-prune', job: 'prune-svc-audit', everyMs: 3_600_000, run: (now) => pruneAuditLog(db, now) };
}
