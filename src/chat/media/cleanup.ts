// The scheduled cleanup of uploads (the `upload-cleanup` job, every UPLOAD_CLEANUP_INTERVAL_MS):
// - a session never sent in a message by its expiry (unfinished, or complete but unused) loses its row and file;
// - a sent file whose every carrying message was recalled loses its bytes (the row stays, marked purged).
// Rows change first, in transactions with their events; files go after the commit, so a file is never removed
// while a row still lets someone reach it. A crash in between leaves an unreachable file, never a broken row.
import type { Clock } from '../../platform/clock.js';
import { sql } from 'kysely';
import { inTransaction, type SqlPool } from '../../platform/db/sql.js';
import { rows } from '../../platform/db/typed.js';
import type { Queues } from '../../platform/queues.js';
import type { MediaStore } from '../../core/media/store.js';
import { chatTopic, outboxInsertFrom } from '../events/emit.js';
import { chatDb } from '../base/tables.js';

export interface CleanupDeps {
  sql: SqlPool;
  clock: Clock;
  queues: Queues;
}

const batch = 500;

/** The owner-only audience of an upload event, as the payload's `audience` (owner_id of the changed row). */
const ownerAudience = sql`jsonb_build_object('kind', 'accounts', 'accountIds', jsonb_build_array(owner_id))`;

const expire = (now: Date) =>
  chatDb
    .with('gone', (db) =>
      db
        .deleteFrom('uploads')
        .where(
          'id',
          'in',
          db
            .selectFrom('uploads')
            .select('id')
            .where('attached_at', 'is', null)
            .where('expires_at', '<=', now)
            .orderBy('expires_at')
            .limit(batch)
            .forUpdate()
            .skipLocked(),
        )
        .returning(['id', 'owner_id', 'status']),
    )
    .with('events', (db) =>
      outboxInsertFrom(
        db,
        db
          .selectFrom('gone')
          .select([
            chatTopic('upload.expired').as('topic'),
            sql<unknown>`jsonb_build_object('uploadId', id, 'ownerId', owner_id, 'status', status, 'audience', ${ownerAudience})`.as(
              'payload',
            ),
          ]),
      ),
    )
    .selectFrom('gone')
    .select('id');

// Only uploads whose first message was recalled can have lost every carrier; the others are not looked at.
const purge = (now: Date) =>
  chatDb
    .with('gone', (db) =>
      db
        .updateTable('uploads')
        .set({ purged_at: now })
        .where(
          'id',
          'in',
          db
            .selectFrom('uploads as u')
            .innerJoin('messages as first', 'first.id', 'u.message_id')
            .select('u.id')
            .where('u.attached_at', 'is not', null)
            .where('u.purged_at', 'is', null)
            .where('first.recalled_at', 'is not', null)
            .where((eb) =>
              eb.not(
                eb.exists(
                  eb
                    .selectFrom('messages as m')
                    .select(sql<number>`1`.as('one'))
                    .where(sql<boolean>`m.attachments @> jsonb_build_array(jsonb_build_object('id', u.id))`)
                    .where('m.recalled_at', 'is', null),
                ),
              ),
            )
            .limit(batch)
            .forUpdate(['u'])
            .skipLocked(),
        )
        .returning(['id', 'owner_id']),
    )
    .with('events', (db) =>
      outboxInsertFrom(
        db,
        db
          .selectFrom('gone')
          .select([
            chatTopic('upload.purged').as('topic'),
            sql<unknown>`jsonb_build_object('uploadId', id, 'ownerId', owner_id, 'audience', ${ownerAudience})`.as('payload'),
          ]),
      ),
    )
    .selectFrom('gone')
    .select('id');

export async function cleanupUploads(deps: CleanupDeps, store: MediaStore): Promise<{ expired: number; purged: number }> {
  let expired = 0;
  let purged = 0;
  for (const [statement, add] of [
    [expire, (n: number) => (expired += n)],
    [purge, (n: number) => (purged += n)],
  ] as const) {
    for (;;) {
      const ids = await inTransaction(deps.sql, async (client) => {
        const gone = await rows(client, statement(deps.clock.now()));
        return gone.map((r) => r.id);
      });
      for (const id of ids) await store.remove(id);
      add(ids.length);
      if (ids.length < batch) break;
    }
  }
  return { expired, purged };
}
