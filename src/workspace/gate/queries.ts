// The statement of the workspace API's key gate, run on every request whose key is not cached.
import { hotRows, type Runner } from '../../platform/db/typed.js';
import type { QueryExamples } from '../../platform/db/query-examples.js';
import { workspaceDb } from '../base/tables.js';

/** The one statement of the gate: the key's row and its workspace's plan (a named prepared statement: fixed text). */
const keyLookup = (hash: Buffer) =>
  workspaceDb
    .selectFrom('svc_keys as k')
    .innerJoin('workspaces as w', 'w.id', 'k.workspace_id')
    .select([
      'k.id',
      'k.workspace_id',
      'k.environment',
      'k.scopes',
      'k.ip_allow_list',
      'k.expires_at',
      'k.revoked_at',
      'w.svc_plan',
      'w.svc_rate_per_hour',
      'w.svc_rate_per_minute',
    ])
    .where('k.key_hash', '=', hash);

export type GateKeyRow = NonNullable<Awaited<ReturnType<ReturnType<typeof keyLookup>['executeTakeFirst']>>>;

export async function keyByHash(db: Runner, hash: Buffer): Promise<GateKeyRow | undefined> {
  return (await hotRows(db, keyLookup(hash)))[0];
}

export const examples: QueryExamples = {
  keyByHash: (db) => keyByHash(db, Buffer.alloc(32)),
};
