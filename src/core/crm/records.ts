// Rows of crm_records and their wire shape, with the hand-written SQL of every read and write. Lists and gets are
// hot paths (benchmarked): one indexed query each, no ORM. Every query is bounded by workspace AND environment, so
// a test_/dev_ key never sees live data and another workspace's record reads as missing.
import { systemClock } from '../../platform/clock.js';
import { newId } from '../../platform/ids.js';
import type { KeyEnvironment } from '../keys/environment.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { createdNow, crmResources, required, resourceDef, type ResourceDef, type ResourceId } from './resources.js';

/** The slice of crm_records a key sees. */
export interface Partition {
  workspaceId: string;
  environment: KeyEnvironment;
}

export interface CrmRow {
  id: string;
  data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** A record as the API returns it: object, id, timestamps and every field of its resource (absent ones null). */
export interface CrmRecord {
  object: string;
  id: string;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}

const fieldNames = new Map<ResourceId, readonly string[]>(crmResources.map((d) => [d.id, Object.keys(d.fields)]));

export function renderRecord(def: ResourceDef, row: CrmRow): CrmRecord {
  const record: CrmRecord = {
    object: def.object,
    id: row.id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
  for (const name of fieldNames.get(def.id) ?? []) record[name] = row.data[name] ?? null;
  return record;
}

const columns = 'id, data, created_at, updated_at';

/**
 * One page, newest first: the rows after `beforeId` (exclusive), at most `limit + 1` so the caller knows whether
 * another page follows. Served by crm_records_list, or crm_records_status when a status is given.
 */
export async function selectPage(
  db: Queryable,
  part: Partition,
  resource: ResourceId,
  options: { limit: number; beforeId?: string; status?: string },
): Promise<CrmRow[]> {
  const params: unknown[] = [part.workspaceId, part.environment, resource];
  let sql = `select ${columns} from crm_records where workspace_id = $1 and environment = $2 and resource = $3`;
  let name = 'crm_page';
  if (options.status !== undefined) {
    params.push(options.status);
    sql += ` and status = $${params.length}`;
    name += '_status';
  }
  if (options.beforeId !== undefined) {
    params.push(options.beforeId);
    sql += ` and id < $${params.length}`;
    name += '_after';
  }
  params.push(options.limit + 1);
  sql += ` order by id desc limit $${params.length}`;
  // Named: each connection parses and plans each of the four shapes once.
  const { rows } = await db.query<CrmRow>({ name, text: sql, values: params });
  return rows;
}

export async function selectOne(
  db: Queryable,
  part: Partition,
  resource: ResourceId,
  id: string,
  forUpdate = false,
): Promise<CrmRow | undefined> {
  const { rows } = await db.query<CrmRow>({
    name: forUpdate ? 'crm_one_for_update' : 'crm_one',
    text: `select ${columns} from crm_records where id = $1 and workspace_id = $2 and environment = $3 and resource = $4${forUpdate ? ' for update' : ''}`,
    values: [id, part.workspaceId, part.environment, resource],
  });
  return rows[0];
}

/** The resource of each of the ids that is a record in the partition (ids of other partitions are left out). */
export async function resourcesOf(db: Queryable, part: Partition, ids: string[]): Promise<Map<string, string>> {
  const { rows } = await db.query<{ id: string; resource: string }>(
    'select id, resource from crm_records where id = any($1::uuid[]) and workspace_id = $2 and environment = $3',
    [ids, part.workspaceId, part.environment],
  );
  return new Map(rows.map((r) => [r.id, r.resource]));
}

/** Merges the given fields into the record (a null value is stored as null, which clears the field). */
export async function patchRow(
  db: Queryable,
  part: Partition,
  def: ResourceDef,
  id: string,
  patch: Record<string, unknown>,
  at: Date,
): Promise<CrmRow | undefined> {
  // The status column mirrors data.status for the status index; the spec never lets a patch set status to null.
  const status = def.statusField ? (patch[def.statusField] ?? null) : null;
  const { rows } = await db.query<CrmRow>(
    `update crm_records set data = data || $5::jsonb, status = coalesce($6, status), updated_at = $7
      where id = $1 and workspace_id = $2 and environment = $3 and resource = $4
      returning ${columns}`,
    [id, part.workspaceId, part.environment, def.id, JSON.stringify(patch), status, at],
  );
  return rows[0];
}

/**
 * The stored data of a new record: the given fields over the resource's defaults, instants in UTC. Throws on an
 * unknown or missing required field: the API validates bodies against the spec before they get here, so this only
 * fires for internal callers (tests, benchmark, seeding) that pass something the API could not return.
 */
export function recordData(def: ResourceDef, input: Record<string, unknown>, now: Date): Record<string, unknown> {
  for (const name of Object.keys(input)) {
    if (!(name in def.fields)) throw new Error(`${def.object} has no field ${name}`);
  }
  const data: Record<string, unknown> = {};
  for (const [name, fallback] of Object.entries(def.fields)) {
    const given = input[name];
    if (given !== undefined) data[name] = def.instantFields.includes(name) ? utcInstant(given) : given;
    else if (fallback === required) throw new Error(`${def.object} needs ${name}`);
    else if (fallback === createdNow) data[name] = now.toISOString();
    else data[name] = fallback;
  }
  return data;
}

/** An RFC 3339 instant with any offset, rewritten in UTC so stored instants compare and read alike. */
export function utcInstant(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString();
}

export interface NewCrmRecord extends Partition {
  resource: ResourceId;
  /** The record's fields; left-out ones take the resource's defaults. */
  data: Record<string, unknown>;
  /** Creation time; defaults to the system clock (tests and services pass their own clock's time). */
  now?: Date;
}

/**
 * Inserts one record of any resource and returns it as the API would. The API uses it for its creates; tests, the
 * benchmark and seeding use it for the read-only resources (invoices, quotations, payments, products, subscriptions)
 * that the API cannot create. References are not checked here.
 */
export async function insertCrmRecord(db: Queryable, input: NewCrmRecord): Promise<CrmRecord> {
  return renderRecord(resourceDef(input.resource), await insertCrmRow(db, input));
}

/** insertCrmRecord's row, for callers that need the stored data (the events of a creation). */
export async function insertCrmRow(db: Queryable, input: NewCrmRecord): Promise<CrmRow> {
  const def = resourceDef(input.resource);
  const now = input.now ?? systemClock.now();
  const data = recordData(def, input.data, now);
  const status = def.statusField ? (data[def.statusField] as string) : null;
  const { rows } = await db.query<CrmRow>(
    `insert into crm_records (id, workspace_id, environment, resource, status, data, created_at, updated_at)
     values ($1, $2, $3, $4, $5, $6::jsonb, $7, $7)
     returning ${columns}`,
    [newId(), input.workspaceId, input.environment, def.id, status, JSON.stringify(data), now],
  );
  return rows[0]!;
}

/** Inserts many records of one resource in a single statement (seeding, benchmark); ids ascend in input order. */
export async function insertCrmRecords(
  db: Queryable,
  part: Partition,
  resource: ResourceId,
  items: Array<Record<string, unknown>>,
  now: Date = systemClock.now(),
): Promise<string[]> {
  const def = resourceDef(resource);
  const data = items.map((item) => recordData(def, item, now));
  const ids = items.map(() => newId());
  await db.query(
    `insert into crm_records (id, workspace_id, environment, resource, status, data, created_at, updated_at)
     select id, $2, $3, $4, status, data, $6, $6
       from unnest($1::uuid[], $5::text[], $7::jsonb[]) as t(id, status, data)`,
    [
      ids,
      part.workspaceId,
      part.environment,
      resource,
      data.map((d) => (def.statusField ? (d[def.statusField] as string) : null)),
      now,
      data.map((d) => JSON.stringify(d)),
    ],
  );
  return ids;
}
