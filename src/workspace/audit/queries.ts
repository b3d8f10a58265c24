// The statements of the audit log: keyset pages of one workspace's entries, the batched write of what the recorder
// collected (with each key's last use), and the removal of entries past the retention.
import { sql, type Selectable } from 'kysely';
import { affected, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { workspaceDb, type WorkspaceTables } from '../base/tables.js';

const auditColumns = ['id', 'time', 'key_id', 'ip', 'method', 'endpoint', 'status_code'] as const;
export type AuditRow = Pick<Selectable<WorkspaceTables['svc_audit_log']>, (typeof auditColumns)[number]>;

export interface AuditFilter {
  from: Date;
  to?: Date;
  keyId?: string;
  statusCode?: number;
  /** The (time, id) of the last entry of the page before. */
  before?: { time: string; id: string };
}

/** A page of the workspace's entries matching the filter, newest first. */
export function auditPage(db: Runner, workspaceId: string, filter: AuditFilter, limit: number): Promise<AuditRow[]> {
  const c = filter.before;
  return rows(
    db,
    workspaceDb
      .selectFrom('svc_audit_log')
      .select(auditColumns)
      .where('workspace_id', '=', workspaceId)
      .where('time', '>=', filter.from)
      .$if(filter.to !== undefined, (q) => q.where('time', '<', filter.to!))
      .$if(filter.keyId !== undefined, (q) => q.where('key_id', '=', filter.keyId!))
      .$if(filter.statusCode !== undefined, (q) => q.where('status_code', '=', filter.statusCode!))
      .$if(c !== undefined, (q) => q.where(sql<boolean>`(time, id) < (${c!.time}::timestamptz, ${c!.id}::uuid)`))
      .orderBy('time', 'desc')
      .orderBy('id', 'desc')
      .limit(limit),
  );
}

/** Deletes the entries older than `before`; how many. */
export function deleteAuditBefore(db: Runner, before: Date): Promise<number> {
  return affected(db, workspaceDb.deleteFrom('svc_audit_log').where('time', '<', before));
}

export interface AuditEntryRow {
  id: string;
  workspaceId: string;
  keyId: string;
  time: Date;
  ip: string;
  method: string;
  endpoint: string;
  statusCode: number;
}

/** Inserts the entries in one statement; an id already written is skipped. */
export async function insertAuditEntries(db: Runner, batch: AuditEntryRow[]): Promise<void> {
  const columns = ['id', 'workspace_id', 'key_id', 'time', 'ip', 'method', 'endpoint', 'status_code'] as const;
  const entries = sql<{
    id: string;
    workspace_id: string;
    key_id: string;
    time: Date;
    ip: string;
    method: string;
    endpoint: string;
    status_code: number;
  }>`unnest(
      ${batch.map((e) => e.id)}::uuid[], ${batch.map((e) => e.workspaceId)}::uuid[], ${batch.map((e) => e.keyId)}::uuid[],
      ${batch.map((e) => e.time)}::timestamptz[], ${batch.map((e) => e.ip)}::text[], ${batch.map((e) => e.method)}::text[],
      ${batch.map((e) => e.endpoint)}::text[], ${batch.map((e) => e.statusCode)}::int[])`.as<'v'>(
    sql`v(${sql.join(columns.map((c) => sql.ref(c)))})`,
  );
  await affected(
    db,
    workspaceDb
      .insertInto('svc_audit_log')
      .columns(columns)
      .expression((eb) => eb.selectFrom(entries).select(columns.map((c) => `v.${c}` as const)))
      .onConflict((oc) => oc.column('id').doNothing()),
  );
}

/** Sets each key's last use unless a later one is stored: several nodes may report a key, the later time wins. */
export async function recordSvcKeysUsed(db: Runner, ids: string[], times: Date[]): Promise<void> {
  await affected(
    db,
    workspaceDb
      .updateTable('svc_keys as k')
      .from(sql<{ id: string; at: Date }>`unnest(${ids}::uuid[], ${times}::timestamptz[])`.as<'v'>(sql`v(id, at)`))
      .set({ last_used_at: sql<Date>`greatest(k.last_used_at, v.at)` })
      .whereRef('k.id', '=', 'v.id'),
  );
}

const entry: AuditEntryRow = {
  id: example.id,
  workspaceId: example.otherId,
  keyId: example.id,
  time: example.at,
  ip: '192.0.2.1',
  method: 'GET',
  endpoint: '/api/v1/tickets',
  statusCode: 200,
};

export const examples: QueryExamples = {
  auditPage: (db) =>
    auditPage(
      db,
      example.id,
      {
        from: example.at,
        to: example.at,
        keyId: example.otherId,
        statusCode: 200,
        before: { time: example.at.toISOString(), id: example.id },
      },
      51,
    ),
  deleteAuditBefore: (db) => deleteAuditBefore(db, example.at),
  insertAuditEntries: (db) => insertAuditEntries(db, [entry, entry]),
  recordSvcKeysUsed: (db) => recordSvcKeysUsed(db, [example.id], [example.at]),
};
