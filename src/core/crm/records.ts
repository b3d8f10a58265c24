// Rows of crm_records and their wire shape, with every read and write as a typed query. Lists and gets are hot paths
// (benchmarked): one indexed statement each, run as named prepared statements. Every query is bounded by workspace AND environment, so
// a test_/dev_ key never sees live data and another workspace's record reads as missing.
import { sql, type Selectable } from 'kysely';
import { systemClock } from '../../platform/clock.js';
import { affected, firstRow, hotRows, rows, type Runner } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import type { KeyEnvironment } from '../keys/environment.js';
import { coreDb, type CoreTables } from '../tables.js';
import { createdNow, crmResources, required, resourceDef, type ResourceDef, type ResourceId } from './resources.js';

/** The slice of crm_records a key sees. */
export interface Partition {
  workspaceId: string;
  environment: KeyEnvironment;
}

const columns = ['id', 'data', 'created_at', 'updated_at'] as const;

/** A record's row; its data is always an object of the resource's fields (recordData writes nothing else). */
export type CrmRow = Omit<Pick<Selectable<CoreTables['crm_records']>, (typeof columns)[number]>, 'data'> & {
  data: Record<string, unknown>;
};

/** The partition's records of one resource: the statements of one resource start here. */
const ofResource = (part: Partition, resource: string) =>
  coreDb
    .selectFrom('crm_records')
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment)
    .where('resource', '=', resource);

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

/**
 * One page, newest first: the rows after `beforeId` (exclusive), at most `limit + 1` so the caller knows whether
 * another page follows. Served by crm_records_list, or crm_records_status when a status is given.
 */
export async function selectPage(
  db: Runner,
  part: Partition,
  resource: ResourceId,
  options: { limit: number; beforeId?: string; status?: string },
): Promise<CrmRow[]> {
  const { status, beforeId } = options;
  // Named: each connection parses and plans each of the four shapes (with or without status and cursor) once.
  return (await hotRows(
    db,
    ofResource(part, resource)
      .select(columns)
      .$if(status !== undefined, (qb) => qb.where('status', '=', status!))
      .$if(beforeId !== undefined, (qb) => qb.where('id', '<', beforeId!))
      .orderBy('id', 'desc')
      .limit(options.limit + 1),
  )) as CrmRow[];
}

export async function selectOne(
  db: Runner,
  part: Partition,
  resource: ResourceId,
  id: string,
  forUpdate = false,
): Promise<CrmRow | undefined> {
  const statement = ofResource(part, resource)
    .select(columns)
    .where('id', '=', id)
    .$if(forUpdate, (qb) => qb.forUpdate());
  return (await hotRows(db, statement))[0] as CrmRow | undefined;
}

/** The resource of each of the ids that is a record in the partition (ids of other partitions are left out). */
export async function resourcesOf(db: Runner, part: Partition, ids: string[]): Promise<Map<string, string>> {
  const found = await rows(
    db,
    coreDb
      .selectFrom('crm_records')
      .select(['id', 'resource'])
      .where('id', '=', sql<string>`any(${ids}::uuid[])`)
      .where('workspace_id', '=', part.workspaceId)
      .where('environment', '=', part.environment),
  );
  return new Map(found.map((r) => [r.id, r.resource]));
}

/** Merges the given fields into the record (a null value is stored as null, which clears the field). */
export async function patchRow(
  db: Runner,
  part: Partition,
  def: ResourceDef,
  id: string,
  patch: Record<string, unknown>,
  at: Date,
): Promise<CrmRow | undefined> {
  // The status column mirrors data.status for the status index; the spec never lets a patch set status to null.
  const status = def.statusField ? (patch[def.statusField] ?? null) : null;
  const row = await firstRow(
    db,
    coreDb
      .updateTable('crm_records')
      .set({
        data: sql`data || ${JSON.stringify(patch)}::jsonb`,
        status: sql`coalesce(${status}, status)`,
        updated_at: at,
      })
      .where('id', '=', id)
      .where('workspace_id', '=', part.workspaceId)
      .where('environment', '=', part.environment)
      .where('resource', '=', def.id)
      .returning(columns),
  );
  return row as CrmRow | undefined;
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
export async function insertCrmRecord(db: Runner, input: NewCrmRecord): Promise<CrmRecord> {
  return renderRecord(resourceDef(input.resource), await insertCrmRow(db, input));
}

/** insertCrmRecord's row, for callers that need the stored data (the events of a creation). */
export async function insertCrmRow(db: Runner, input: NewCrmRecord): Promise<CrmRow> {
  const def = resourceDef(input.resource);
  const now = input.now ?? systemClock.now();
  const data = recordData(def, input.data, now);
  const status = def.statusField ? (data[def.statusField] as string) : null;
  const row = await firstRow(
    db,
    coreDb
      .insertInto('crm_records')
      .values({
        id: newId(),
        workspace_id: input.workspaceId,
        environment: input.environment,
        resource: def.id,
        status,
        data: sql`${JSON.stringify(data)}::jsonb`,
        created_at: now,
        updated_at: now,
      })
      .returning(columns),
  );
  return row as CrmRow;
}

/** Inserts many records of one resource in a single statement (seeding, benchmark); ids ascend in input order. */
export async function insertCrmRecords(
  db: Runner,
  part: Partition,
  resource: ResourceId,
  items: Array<Record<string, unknown>>,
  now: Date = systemClock.now(),
): Promise<string[]> {
  const def = resourceDef(resource);
  const data = items.map((item) => recordData(def, item, now));
  const ids = items.map(() => newId());
  const statuses = data.map((d) => (def.statusField ? (d[def.statusField] as string) : null));
  const given = sql<{
    id: string;
    status: string | null;
    data: unknown;
  }>`unnest(${ids}::uuid[], ${statuses}::text[], ${data.map((d) => JSON.stringify(d))}::jsonb[])`;
  await affected(
    db,
    coreDb
      .insertInto('crm_records')
      .columns(['id', 'workspace_id', 'environment', 'resource', 'status', 'data', 'created_at', 'updated_at'])
      .expression((eb) =>
        eb
          .selectFrom(given.as<'t'>(sql`t(id, status, data)`))
          .select([
            't.id',
            eb.val(part.workspaceId).as('workspace_id'),
            eb.val(part.environment).as('environment'),
            eb.val(resource).as('resource'),
            't.status',
            't.data',
            eb.val(now).as('created_at'),
            eb.val(now).as('updated_at'),
          ]),
      ),
  );
  return ids;
}
