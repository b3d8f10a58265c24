// The statements of svc_ keys: issued with their hash, listed by status and read by workspace, revoked for good.
import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { workspaceDb, type WorkspaceTables } from '../base/tables.js';
import { svcKeyColumns, type KeyStatus } from './views.js';

export interface NewSvcKey {
  id: string;
  workspaceId: string;
  name: string;
  description: string | null;
  prefix: string;
  lastFour: string;
  hash: Buffer;
  environment: string;
  scopes: string[];
  ipAllowList: string[];
  expiresAt: Date | null;
  createdBy: string | null;
  at: Date;
}

export async function insertSvcKey(db: Runner, key: NewSvcKey) {
  const issued = await firstRow(
    db,
    workspaceDb
      .insertInto('svc_keys')
      .values({
        id: key.id,
        workspace_id: key.workspaceId,
        name: key.name,
        description: key.description,
        prefix: key.prefix,
        last_four: key.lastFour,
        key_hash: key.hash,
        environment: key.environment,
        scopes: sql<string[]>`${key.scopes}::text[]`,
        ip_allow_list: sql<string[]>`${key.ipAllowList}::text[]`,
        expires_at: key.expiresAt,
        created_by: key.createdBy,
        created_at: key.at,
      })
      .returning(svcKeyColumns),
  );
  return issued!;
}

type KeyFilter = ExpressionBuilder<WorkspaceTables, 'svc_keys'>;

/** The condition of a status; Active and Expired depend on `now`. */
const statusConditions: Record<KeyStatus, (eb: KeyFilter, now: Date) => Expression<SqlBool>> = {
  Active: (eb, now) => eb.and([eb('revoked_at', 'is', null), eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)])]),
  Revoked: (eb) => eb('revoked_at', 'is not', null),
  Expired: (eb, now) => eb.and([eb('revoked_at', 'is', null), eb('expires_at', '<=', now)]),
};

/** A page of the workspace's keys (of a status at `now`, when given) after an id, newest first (ids are time-ordered). */
export function svcKeyPage(
  db: Runner,
  workspaceId: string,
  filter: { status?: KeyStatus; now: Date },
  before: string | undefined,
  limit: number,
) {
  const condition = filter.status === undefined ? undefined : statusConditions[filter.status];
  return rows(
    db,
    workspaceDb
      .selectFrom('svc_keys')
      .select(svcKeyColumns)
      .where('workspace_id', '=', workspaceId)
      .$if(condition !== undefined, (q) => q.where((eb) => condition!(eb, filter.now)))
      .$if(before !== undefined, (q) => q.where('id', '<', before!))
      .orderBy('id', 'desc')
      .limit(limit),
  );
}

export function svcKeyById(db: Runner, workspaceId: string, keyId: string) {
  return firstRow(
    db,
    workspaceDb.selectFrom('svc_keys').select(svcKeyColumns).where('id', '=', keyId).where('workspace_id', '=', workspaceId),
  );
}

/** The revoked key, or undefined when the workspace has no unrevoked key of this id. */
export function revokeUnrevokedKey(db: Runner, workspaceId: string, keyId: string, revokedBy: string | null, at: Date) {
  return firstRow(
    db,
    workspaceDb
      .updateTable('svc_keys')
      .set({ revoked_at: at, revoked_by: revokedBy })
      .where('id', '=', keyId)
      .where('workspace_id', '=', workspaceId)
      .where('revoked_at', 'is', null)
      .returning(svcKeyColumns),
  );
}

export const examples: QueryExamples = {
  insertSvcKey: (db) =>
    insertSvcKey(db, {
      id: example.id,
      workspaceId: example.otherId,
      name: example.text,
      description: null,
      prefix: 'svc_live_',
      lastFour: 'abcd',
      hash: Buffer.alloc(32),
      environment: 'live',
      scopes: ['tickets.read'],
      ipAllowList: ['192.0.2.0/24'],
      expiresAt: null,
      createdBy: example.otherId,
      at: example.at,
    }),
  svcKeyPage: (db) => svcKeyPage(db, example.otherId, { status: 'Active', now: example.at }, example.id, 51),
  svcKeyById: (db) => svcKeyById(db, example.otherId, example.id),
  revokeUnrevokedKey: (db) => revokeUnrevokedKey(db, example.otherId, example.id, example.otherId, example.at),
};
