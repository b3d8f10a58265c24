// Idempotency-Key records. The record is inserted in the same transaction as the write it guards and gets the
// response before commit, so a write and its record commit together or not at all. A second request with the same
// key waits on the first one's uncommitted row (unique index), then replays its response: two identical requests in
// flight, on any nodes, create one record. A failed write rolls back its record, so a retry runs afresh.
import type { Clock } from '../../platform/clock.js';
import { inTransaction, type SqlClient, type SqlPool } from '../../platform/db/sql.js';
import { partnerErrors } from '../base/errors.js';
import { claimKey, deleteRecord, readRecord, storeResponse, type IdempotencyRecord } from './queries.js';

export const idempotencyWindowMs = 24 * 60 * 60 * 1000;

export interface StoredResponse {
  status: number;
  body: unknown;
  location?: string;
}

/** The stored response as the update below writes it. */
type StoredBody = { body: unknown; location?: string } | null;

/** What one attempt ended with: the work's result, a record to replay, or an expired record removed (try again). */
type Attempt<R> = { done: R } | { stored: IdempotencyRecord } | { retry: true };

export class IdempotencyStore {
  constructor(
    private readonly sql: SqlPool,
    private readonly clock: Clock,
  ) {}

  /** Runs `work` once per (workspace, key) and content within 24 hours; replays its response afterwards. */
  async run<R extends StoredResponse>(
    workspaceId: string,
    key: string,
    fingerprint: Buffer,
    work: (tx: SqlClient) => Promise<R>,
  ): Promise<R> {
    for (let attempt = 0; attempt < 5; attempt++) {
      // A transaction that only found another request's record wrote nothing: committing it is as good as rolling back.
      const outcome = await inTransaction(this.sql, (client) => this.attempt(client, workspaceId, key, fingerprint, work));
      if ('done' in outcome) return outcome.done;
      if ('retry' in outcome) continue;
      const row = outcome.stored;
      if (!fingerprint.equals(row.request_hash)) throw partnerErrors.idempotencyConflict();
      const stored = (row.response_body as StoredBody) ?? { body: null };
      return { status: row.response_status, body: stored.body, ...(stored.location ? { location: stored.location } : {}) } as R;
    }
    throw new Error('Idempotency-Key could not be claimed after 5 attempts');
  }

  /** Claims the key and runs the work, or reads the record another request holds (removing it when expired). */
  private async attempt<R extends StoredResponse>(
    client: SqlClient,
    workspaceId: string,
    key: string,
    fingerprint: Buffer,
    work: (tx: SqlClient) => Promise<R>,
  ): Promise<Attempt<R>> {
    const now = this.clock.now();
    if (await claimKey(client, workspaceId, key, fingerprint, now)) {
      const result = await work(client);
      const body = JSON.stringify({ body: result.body ?? null, location: result.location });
      await storeResponse(client, workspaceId, key, result.status, body);
      return { done: result };
    }
    const row = await readRecord(client, workspaceId, key);
    if (!row) return { retry: true }; // the first request rolled back in between: claim the key now
    if (row.created_at.getTime() <= now.getTime() - idempotencyWindowMs) {
      // Older than 24 hours: the key is free again.
      await deleteRecord(client, workspaceId, key, row.created_at);
      return { retry: true };
    }
    return { stored: row };
  }
}
