// Records of crm_records in their wire shape, and what a write stores: a new record's data over its resource's
// defaults, the status column beside it. The statements, each bounded by the partition, are in queries.ts.
import { systemClock } from '../../platform/clock.js';
import type { Runner } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import { insertRecord, insertRecords, mergeRecordData, type CrmRow, type Partition } from './queries.js';
import { createdNow, crmResources, required, resourceDef, type ResourceDef, type ResourceId } from './resources.js';

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
  return mergeRecordData(db, part, { resource: def.id, id }, patch, status, at);
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
  return insertRecord(db, {
    workspaceId: input.workspaceId,
    environment: input.environment,
    id: newId(),
    resource: def.id,
    status,
    data,
    at: now,
  });
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
  await insertRecords(db, part, resource, { ids, statuses, data }, now);
  return ids;
}
