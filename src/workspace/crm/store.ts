// SQL of the workspace API over crm_records, bounded by workspace and key environment like the partner's: pages
// with this API's filters (the status column, or a key of the row's data), inserts that return the row, and the
// reference checks of writes.
import type { Queryable } from '../../platform/db/queryable.js';
import { recordData, resourcesOf, type CrmRow, type Partition } from '../../core/crm/records.js';
import { resourceDef, type ResourceId } from '../../core/crm/resources.js';
import { newId } from '../../platform/ids.js';
import { Filters } from '../../platform/db/filters.js';
import { type Position } from '../common/paging.js';
import { workspaceErrors } from '../errors.js';

const columns = 'id, data, created_at, updated_at';

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
  const where = new Filters([part.workspaceId, part.environment, resource]);
  for (const f of filters) where.eq(f.key === 'status' ? 'status' : `data->>'${f.key.replace(/[^a-z_]/g, '')}'`, f.value);
  if (after) where.raw('id < $?', after.id);
  const limitParam = where.push(limit + 1);
  const { rows } = await db.query<CrmRow>(
    `select ${columns} from crm_records where workspace_id = $1 and environment = $2 and resource = $3${where.sql()} order by id desc limit ${limitParam}`,
    where.params,
  );
  return rows;
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
  const { rows } = await db.query<CrmRow>(
    `insert into crm_records (id, workspace_id, environment, resource, status, data, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6::jsonb, $7, $7) returning ${columns}`,
    [id, part.workspaceId, part.environment, resource, status, JSON.stringify(data), now],
  );
  return rows[0]!;
}

/** Every given reference must name a record of its resource in the partition; else 400 naming the field. */
export async function checkReferences(
  db: Queryable,
  part: Partition,
  refs: Array<{ field: string; id: string | null | undefined; resource: ResourceId }>,
): Promise<void> {
  const wanted = refs.filter((r): r is { field: string; id: string; resource: ResourceId } => typeof r.id === 'string');
  if (wanted.length === 0) return;
  const found = await resourcesOf(
    db,
    part,
    wanted.map((w) => w.id),
  );
  for (const w of wanted) {
    if (found.get(w.id) !== w.resource)
      throw workspaceErrors.invalid(w.field, `names no ${resourceDef(w.resource).object.slice(4)} of this workspace`);
  }
}
