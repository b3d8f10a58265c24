// SQL of the workspace API over crm_records, bounded by workspace and key environment like the partner's: pages
// with this API's filters (the status column, or a key of the row's data) and inserts that return the row.
import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/queryable.js';
import { firstRow, rows } from '../../platform/db/typed.js';
import { recordData } from '../../core/crm/records.js';
import { type CrmRow, type Partition } from '../../core/crm/queries.js';
import { resourceDef, type ResourceId } from '../../core/crm/resources.js';
import { newId } from '../../platform/ids.js';
import { type Position } from '../base/paging.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { workspaceDb } from '../base/tables.js';

const columns = ['id', 'data', 'created_at', 'updated_at'] as const;

export interface RecordFilter {
  /** The data key compared, or 'status' for the status column. */
  key: string;
  value: string | undefined;
}

/** One page of a resource, newest first, at most limit + 1 rows. */
export async function selectRecords(
  db: Queryable,
  part: Partition,
  resource: ResourceId,
  limit: number,
  after: Position | undefined,
  filters: RecordFilter[],
): Promise<CrmRow[]> {
  let query = workspaceDb
    .selectFrom('crm_records')
    .select(columns)
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment)
    .where('resource', '=', resource);
  for (const f of filters) {
    if (f.value === undefined) continue;
    query =
      f.key === 'status'
        ? query.where('status', '=', f.value)
        : query.where(sql<string>`data->>${f.key.replace(/[^a-z_]/g, '')}`, '=', f.value);
  }
  const found = await rows(
    db,
    query
      .$if(after !== undefined, (q) => q.where('id', '<', after!.id))
      .orderBy('id', 'desc')
      .limit(limit + 1),
  );
  return found as CrmRow[];
}

/**
 * Inserts a record: the partner's fields over the resource's defaults (recordData), then the fields only this API
 * shows. Returns the row.
 */
export async function insertRecord(
  db: Queryable,
  part: Partition,
  resource: ResourceId,
  partnerFields: Record<string, unknown>,
  extra: Record<string, unknown>,
  now: Date,
  id = newId(),
): Promise<CrmRow> {
  const def = resourceDef(resource);
  const data = { ...recordData(def, partnerFields, now), ...extra };
  const status = def.statusField ? (data[def.statusField] as string) : null;
  const inserted = await firstRow(
    db,
    workspaceDb
      .insertInto('crm_records')
      .values({
        id,
        workspace_id: part.workspaceId,
        environment: part.environment,
        resource,
        status,
        data: sql`${JSON.stringify(data)}::jsonb`,
        created_at: now,
        updated_at: now,
      })
      .returning(columns),
  );
  return inserted as CrmRow;
}

const part: Partition = { workspaceId: example.id, environment: 'live' };

export const examples: QueryExamples = {
  selectRecords: (db) =>
    selectRecords(db, part, 'leads', 51, { id: example.otherId }, [
      { key: 'status', value: 'new' },
      { key: 'source', value: 'web' },
    ]),
  insertRecord: (db) => insertRecord(db, part, 'leads', { full_name: example.text }, { converted_at: null }, example.at, example.otherId),
};
