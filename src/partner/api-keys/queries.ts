// The statements of API keys: issued with their hash, listed and read by workspace, revoked while active.
import { firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { partnerDb } from '../base/tables.js';
import { apiKeyColumns, type ApiKeyRow } from './views.js';

export interface NewApiKey {
  id: string;
  workspaceId: string;
  name: string;
  prefix: string;
  hash: Buffer;
  environment: string;
  scopes: string[];
  createdBy: string | null;
  at: Date;
  expiresAt: Date | null;
}

export async function insertApiKey(db: Runner, key: NewApiKey): Promise<ApiKeyRow> {
  const row = await firstRow(
    db,
    partnerDb
      .insertInto('api_keys')
      .values({
        id: key.id,
        workspace_id: key.workspaceId,
        name: key.name,
        prefix: key.prefix,
        key_hash: key.hash,
        environment: key.environment,
        scopes: key.scopes,
        status: 'active',
        created_by: key.createdBy,
        created_at: key.at,
        expires_at: key.expiresAt,
      })
      .returning(apiKeyColumns),
  );
  return row!;
}

/** A page of the workspace's keys after an id, newest first (ids are time-ordered). */
export function apiKeyPage(db: Runner, workspaceId: string, afterId: string | undefined, limit: number): Promise<ApiKeyRow[]> {
  return rows(
    db,
    partnerDb
      .selectFrom('api_keys')
      .select(apiKeyColumns)
      .where('workspace_id', '=', workspaceId)
      .$if(afterId !== undefined, (qb) => qb.where('id', '<', afterId!))
      .orderBy('id', 'desc')
      .limit(limit),
  );
}

export function apiKeyById(db: Runner, workspaceId: string, keyId: string): Promise<ApiKeyRow | undefined> {
  return firstRow(
    db,
    partnerDb.selectFrom('api_keys').select(apiKeyColumns).where('id', '=', keyId).where('workspace_id', '=', workspaceId),
  );
}

/** The revoked key, or undefined when the workspace has no active key of this id. */
export function revokeActiveKey(
  db: Runner,
  workspaceId: string,
  keyId: string,
  revokedBy: string | null,
  at: Date,
): Promise<ApiKeyRow | undefined> {
  return firstRow(
    db,
    partnerDb
      .updateTable('api_keys')
      .set({ status: 'revoked', revoked_at: at, revoked_by: revokedBy })
      .where('id', '=', keyId)
      .where('workspace_id', '=', workspaceId)
      .where('status', '=', 'active')
      .returning(apiKeyColumns),
  );
}

export const examples: QueryExamples = {
  insertApiKey: (db) =>
    insertApiKey(db, {
      id: example.id,
      workspaceId: example.otherId,
      name: example.text,
      prefix: 'live_abcd',
      hash: Buffer.alloc(32),
      environment: 'live',
      scopes: ['crm.read'],
      createdBy: example.otherId,
      at: example.at,
      expiresAt: null,
    }),
  apiKeyPage: (db) => apiKeyPage(db, example.otherId, example.id, 51),
  apiKeyById: (db) => apiKeyById(db, example.otherId, example.id),
  revokeActiveKey: (db) => revokeActiveKey(db, example.otherId, example.id, example.id, example.at),
};
