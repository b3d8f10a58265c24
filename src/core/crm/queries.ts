// The statements of crm_records. Lists and gets are hot paths (benchmarked): one indexed statement each, run as named
// prepared statements. Every statement is bounded by workspace AND environment, so a test_/dev_ key never sees live
// data and another workspace's record reads as missing.
import { sql, type Selectable } from 'kysely';
import { affected, firstRow, hotRows, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import type { KeyEnvironment } from '../keys/environment.js';
import { coreDb, type CoreTables } from '../tables.js';
import type { ResourceId } from './resources.js';

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

/** Merges the given fields into the record's data and sets its status column unless `status` is null. */
export async function mergeRecordData(
  db: Runner,
  part: Partition,
  record: { resource: ResourceId; id: string },
  patch: Record<string, unknown>,
  status: unknown,
  at: Date,
): Promise<CrmRow | undefined> {
  const row = await firstRow(
    db,
    coreDb
      .updateTable('crm_records')
      .set({
        data: sql`data || ${JSON.stringify(patch)}::jsonb`,
        status: sql`coalesce(${status}, status)`,
        updated_at: at,
      })
      .where('id', '=', record.id)
      .where('workspace_id', '=', part.workspaceId)
      .where('environment', '=', part.environment)
      .where('resource', '=', record.resource)
      .returning(columns),
  );
  return row as CrmRow | undefined;
}

/** A new record's row as stored. */
export interface StoredRecord extends Partition {
  id: string;
  resource: ResourceId;
  status: string | null;
  data: Record<string, unknown>;
  at: Date;
}

export async function insertRecord(db: Runner, record: StoredRecord): Promise<CrmRow> {
  const row = await firstRow(
    db,
    coreDb
      .insertInto('crm_records')
      .values({
        id: record.id,
        workspace_id: record.workspaceId,
        environment: record.environment,
        resource: record.resource,
        status: record.status,
        data: sql`${JSON.stringify(record.data)}::jsonb`,
        created_at: record.at,
        updated_at: record.at,
      })
      .returning(columns),
  );
  return row as CrmRow;
}

/** Many records of one resource in a single statement, one array element per record. */
export async function insertRecords(
  db: Runner,
  part: Partition,
  resource: ResourceId,
  records: { ids: string[]; statuses: (string | null)[]; data: Array<Record<string, unknown>> },
  now: Date,
): Promise<number> {
  const given = sql<{
    id: string;
    status: string | null;
    data: unknown;
  }>`unnest(${records.ids}::uuid[], ${records.statuses}::text[], ${records.data.map((d) => JSON.stringify(d))}::jsonb[])`;
  return affected(
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
}

const part: Partition = { workspaceId: example.id, environment: 'live' };

export const examples: QueryExamples = {
  selectPage: (db) => selectPage(db, part, 'leads', { limit: 50, beforeId: example.otherId, status: 'new' }),
  selectOne: (db) => selectOne(db, part, 'leads', example.otherId, true),
  resourcesOf: (db) => resourcesOf(db, part, [example.otherId]),
  mergeRecordData: (db) => mergeRecordData(db, part, { resource: 'leads', id: example.otherId }, { name: example.text }, 'new', example.at),
  insertRecord: (db) =>
    insertRecord(db, { ...part, id: example.otherId, resource: 'leads', status: 'new', data: { name: example.text }, at: example.at }),
  insertRecords: (db) =>
    insertRecords(db, part, 'leads', { ids: [example.otherId], statuses: ['new'], data: [{ name: example.text }] }, example.at),
};
