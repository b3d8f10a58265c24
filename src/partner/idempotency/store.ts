// Idempotency-Key records. The record is inserted in the same transaction as the write it guards and gets the
// response before commit, so a write and its record commit together or not at all. A second request with the same
// key waits on the first one's uncommitted row (unique index), then replays its response: two identical requests in
// flight, on any nodes, create one record. A failed write rolls back its record, so a retry runs afresh.
import type { Clock } from '../../platform/clock.js';
import type { SqlClient, SqlPool } from '../../platform/db/sql.js';
import { partnerErrors } from '../errors.js';

export const idempotencyWindowMs = 24 * 60 * 60 * 1000;

export interface StoredResponse {
  status: number;
  body: unknown;
  location?: string;
}

interface Row {
  request_hash: Buffer;
  response_status: number;
  response_body: { body: unknown; location?: string } | null;
  created_at: Date;
}

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
      const client = await this.sql.connect();
      let open = false;
      try {
        await client.query('begin');
        open = true;
        const now = this.clock.now();
        const claimed = await client.query(
          `insert into idempotency_keys (workspace_id, idempotency_key, request_hash, response_status, created_at)
           values ($1, $2, $3, 0, $4) on conflict do nothing`,
          [workspaceId, key, fingerprint, now],
        );
        if (claimed.rowCount === 1) {
          const result = await work(client);
          await client.query(
            'update idempotency_keys set response_status = $3, response_body = $4 where workspace_id = $1 and idempotency_key = $2',
            [workspaceId, key, result.status, JSON.stringify({ body: result.body ?? null, location: result.location })],
          );
          await client.query('commit');
          open = false;
          return result;
        }
        const { rows } = await client.query<Row>(
          'select request_hash, response_status, response_body, created_at from idempotency_keys where workspace_id = $1 and idempotency_key = $2',
          [workspaceId, key],
        );
        const row = rows[0];
        if (row && row.created_at.getTime() <= now.getTime() - idempotencyWindowMs) {
          // Older than 24 hours: the key is free again.
          await client.query('delete from idempotency_keys where workspace_id = $1 and idempotency_key = $2 and created_at = $3', [
            workspaceId,
            key,
            row.created_at,
          ]);
          await client.query('commit');
          open = false;
          continue;
        }
        await client.query('rollback');
        open = false;
        if (!row) continue; // the first request rolled back in between: claim the key now
        if (!row.request_hash.equals(fingerprint)) throw partnerErrors.idempotencyConflict();
        const stored = row.response_body ?? { body: null };
        return { status: row.response_status, body: stored.body, ...(stored.location ? { location: stored.location } : {}) } as R;
      } finally {
        if (open) await client.query('rollback').catch(() => undefined);
        client.release();
      }
    }
    throw new Error('Idempotency-Key could not be claimed after 5 attempts');
  }
}
