// The scheduled cleanup of uploads (the `upload-cleanup` job, every UPLOAD_CLEANUP_INTERVAL_MS):
// - a session never sent in a message by its expiry (unfinished, or complete but unused) loses its row and file;
// - a sent file whose every carrying message was recalled loses its bytes (the row stays, marked purged).
// Rows change first, in transactions with their events; files go after the commit, so a file is never removed
// while a row still lets someone reach it. A crash in between leaves an unreachable file, never a broken row.
import type { Clock } from '../../platform/clock.js';
import { inTransaction, type SqlPool } from '../../platform/db/sql.js';
import type { Queues } from '../../platform/queues.js';
import type { MediaStore } from '../../core/media/store.js';
import { cleanupBatch, expireUploads, purgeUploads } from './cleanup-queries.js';

export interface CleanupDeps {
  sql: SqlPool;
  clock: Clock;
  queues: Queues;
}

export async function cleanupUploads(deps: CleanupDeps, store: MediaStore): Promise<{ expired: number; purged: number }> {
  let expired = 0;
  let purged = 0;
  for (const [statement, add] of [
    [expireUploads, (n: number) => (expired += n)],
    [purgeUploads, (n: number) => (purged += n)],
  ] as const) {
    for (;;) {
      const ids = await inTransaction(deps.sql, (client) => statement(client, deps.clock.now()));
      for (const id of ids) await store.remove(id);
      add(ids.length);
      if (ids.length < cleanupBatch) break;
    }
  }
  return { expired, purged };
}
