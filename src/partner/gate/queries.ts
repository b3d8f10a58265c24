// The statements of the partner's key gate: the key lookup of every request and the batched last-used write.
import { sql, type InferResult } from 'kysely';
import { affected, hotRows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { partnerDb } from '../base/tables.js';

/** The key with its workspace's plan, by the key's hash: one statement whose text never varies (a named prepared one). */
const lookupByHash = (hash: Buffer) =>
  partnerDb
    .selectFrom('api_keys as k')
    .innerJoin('workspaces as w', 'w.id', 'k.workspace_id')
    .select(['k.id', 'k.workspace_id', 'k.environment', 'k.prefix', 'k.scopes', 'k.status', 'k.expires_at', 'w.plan'])
    .where('k.key_hash', '=', hash);

export type GateKeyRow = InferResult<ReturnType<typeof lookupByHash>>[number];

export async function keyByHash(db: Runner, hash: Buffer): Promise<GateKeyRow | undefined> {
  return (await hotRows(db, lookupByHash(hash)))[0];
}

/** Sets each key's last use to the given time unless a later one is stored (several nodes may write the same key). */
export function recordKeysUsed(db: Runner, ids: string[], times: Date[]): Promise<number> {
  const used = sql<{ id: string; at: Date }>`unnest(${ids}::uuid[], ${times}::timestamptz[])`.as<'v'>(sql`v(id, at)`);
  return affected(
    db,
    partnerDb
      .updateTable('api_keys as k')
      .from(used)
      .set({ last_used_at: sql`greatest(k.last_used_at, v.at)` })
      .whereRef('k.id', '=', 'v.id'),
  );
}

export const examples: QueryExamples = {
  keyByHash: (db) => keyByHash(db, Buffer.alloc(32)),
  recordKeysUsed: (db) => recordKeysUsed(db, [example.id, example.otherId], [example.at, example.at]),
};
