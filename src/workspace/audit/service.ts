// Reading the audit log: one workspace's entries of the last 30 days, newest first, filtered by key, status code
// and time range, in keyset pages on (time, id). Older entries are not shown even before the job deletes them.
import type { Queryable } from '../../platform/db/queryable.js';
import type { PruneTask } from '../../platform/queues.js';
import { boundList, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { isUuid } from '../../platform/ids.js';
import { workspaceErrors } from '../base/errors.js';
import type { Page } from '../base/paging.js';
import { auditPage, deleteAuditBefore, type AuditRow } from './queries.js';

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

function parseCursor(list: string, raw: string): { time: string; id: string } {
  const c = decodeCursor(raw, list);
  if (!c || typeof c.t !== 'string' || Number.isNaN(Date.parse(c.t)) || typeof c.i !== 'string' || !isUuid(c.i)) {
    throw workspaceErrors.invalid('query.cursor', 'is not a cursor of this list; pass next_cursor back unchanged');
  }
  return { time: c.t, id: c.i };
}

export async function listAuditLog(db: Queryable, workspaceId: string, query: AuditQuery, now: Date): Promise<Page<AuditView>> {
  const limit = query.limit ?? 50;
  const oldest = new Date(now.getTime() - retentionMs);
  const from = query.from !== undefined && Date.parse(query.from) > oldest.getTime() ? new Date(query.from) : oldest;
  const list = boundList('audit', [workspaceId], query);
  const c = query.cursor === undefined ? undefined : parseCursor(list, query.cursor);
  const filter = {
    from,
    to: query.to !== undefined ? new Date(query.to) : undefined,
    keyId: query.key_id,
    statusCode: query.status_code,
    before: c,
  };
  const found = await auditPage(db, workspaceId, filter, limit + 1);
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(auditView),
    next_cursor: found.length > limit && last ? encodeCursor({ t: last.time.toISOString(), i: last.id }, list) : null,
  };
}

/** Deletes entries older than the retention; run hourly by the maintenance queue. */
export async function pruneAuditLog(db: Queryable, now: Date): Promise<number> {
  return deleteAuditBefore(db, new Date(now.getTime() - retentionMs));
}

/** The audit log keeps 30 days; pruned hourly on the maintenance queue. */
export function auditPruneTask(db: Queryable): PruneTask {
  return { scheduler: 'svc-audit-prune', job: 'prune-svc-audit', everyMs: 3_600_000, run: (now) => pruneAuditLog(db, now) };
}
