// The statements of Idempotency-Key records: claimed with the write they guard, answered with its response, removed
// once older than the window.
import { sql } from 'kysely';
import { affected, firstRow, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { partnerDb } from '../base/tables.js';

const record = (workspaceId: string, key: string) =>
  partnerDb.selectFrom('idempotency_keys').where('workspace_id', '=', workspaceId).where('idempotency_key', '=', key);

export type IdempotencyRecord = NonNullable<Awaited<ReturnType<typeof readRecord>>>;

/** The record of a key, or undefined when there is none. */
export function readRecord(db: Runner, workspaceId: string, key: string) {
  return firstRow(db, record(workspaceId, key).select(['request_hash', 'response_status', 'response_body', 'created_at']));
}

/** Inserts the record unless the key has one; true when this request claimed it. */
export async function claimKey(db: Runner, workspaceId: string, key: string, fingerprint: Buffer, at: Date): Promise<boolean> {
  const claimed = await affected(
    db,
    partnerDb
      .insertInto('idempotency_keys')
      .values({ workspace_id: workspaceId, idempotency_key: key, request_hash: fingerprint, response_status: 0, created_at: at })
      .onConflict((oc) => oc.doNothing()),
  );
  return claimed === 1;
}

/** Stores the response (`body`: the JSON text of the stored body and location) on the claimed record. */
export function storeResponse(db: Runner, workspaceId: string, key: string, status: number, body: string): Promise<number> {
  return affected(
    db,
    partnerDb
      .updateTable('idempotency_keys')
      .set({ response_status: status, response_body: body })
      .where('workspace_id', '=', workspaceId)
      .where('idempotency_key', '=', key),
  );
}

/** Deletes the record read at `createdAt` (an expired one); a newer record of the key stays. */
export function deleteRecord(db: Runner, workspaceId: string, key: string, createdAt: Date): Promise<number> {
  return affected(
    db,
    partnerDb
      .deleteFrom('idempotency_keys')
      .where('workspace_id', '=', workspaceId)
      .where('idempotency_key', '=', key)
      .where('created_at', '=', createdAt),
  );
}

/** Deletes the records older than 24 hours; how many. */
export function deleteExpiredRecords(db: Runner): Promise<number> {
  return affected(db, partnerDb.deleteFrom('idempotency_keys').where('created_at', '<', sql<Date>`now() - interval '24 hours'`));
}

export const examples: QueryExamples = {
  readRecord: (db) => readRecord(db, example.id, example.text),
  claimKey: (db) => claimKey(db, example.id, example.text, Buffer.alloc(32), example.at),
  storeResponse: (db) => storeResponse(db, example.id, example.text, 201, '{"body":null}'),
  deleteRecord: (db) => deleteRecord(db, example.id, example.text, example.at),
  deleteExpiredRecords: (db) => deleteExpiredRecords(db),
};
