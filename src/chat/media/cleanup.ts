// The scheduled cleanup of uploads (the `upload-cleanup` job, every UPLOAD_CLEANUP_INTERVAL_MS):
// - a session never sent in a message by its expiry (unfinished, or complete but unused) loses its row and file;
// - a sent file whose every carrying message was recalled loses its bytes (the row stays, marked purged).
// Rows change first, in transactions with their events; files go after the commit, so a file is never removed
// while a row still lets someone reach it. A crash in between leaves an unreachable file, never a broken row.
import type { Clock } from '../../platform/clock.js';
import { inTransaction, type SqlPool } from '../../platform/db/sql.js';
import type { Queues } from '../../platform/queues.js';
import type { MediaStore } from '../../core/media/store.js';
import { chatTopicSql, outboxInsertSql } from '../events/emit.js';

export interface CleanupDeps {
  sql: SqlPool;
  clock: Clock;
  queues: Queues;
}

const batch = 500;

const expireSql = `
  with gone as (
    delete from uploads where id in (
      select id from uploads where attached_at is null and expires_at <= $1 order by expires_at limit $2 for update skip locked)
    returning id, owner_id, status
  ), events as (
    ${outboxInsertSql}
    select ${chatTopicSql('upload.expired')}, jsonb_build_object('uploadId', id, 'ownerId', owner_id, 'status', status,
             'audience', jsonb_build_object('kind', 'accounts', 'accountIds', jsonb_build_array(owner_id)))
      from gone
  )
  select id from gone`;

// Only uploads whose first message was recalled can have lost every carrier; the others are not looked at.
const purgeSql = `
  with gone as (
    update uploads set purged_at = $1 where id in (
      select u.id from uploads u join messages first on first.id = u.message_id
       where u.attached_at is not null and u.purged_at is null and first.recalled_at is not null
         and not exists (select 1 from messages m
                          where m.attachments @> jsonb_build_array(jsonb_build_object('id', u.id)) and m.recalled_at is null)
       limit $2 for update of u skip locked)
    returning id, owner_id
  ), events as (
    ${outboxInsertSql}
    select ${chatTopicSql('upload.purged')}, jsonb_build_object('uploadId', id, 'ownerId', owner_id,
             'audience', jsonb_build_object('kind', 'accounts', 'accountIds', jsonb_build_array(owner_id)))
      from gone
  )
  select id from gone`;

export async function cleanupUploads(deps: CleanupDeps, store: MediaStore): Promise<{ expired: number; purged: number }> {
  let expired = 0;
  let purged = 0;
  for (const [sql, add] of [
    [expireSql, (n: number) => (expired += n)],
    [purgeSql, (n: number) => (purged += n)],
  ] as const) {
    for (;;) {
      const ids = await inTransaction(deps.sql, async (client) => {
        const { rows } = await client.query<{ id: string }>(sql, [deps.clock.now(), batch]);
        return rows.map((r) => r.id);
      });
      if (ids.length > 0) deps.queues.requestOutboxDrain();
      for (const id of ids) await store.remove(id);
      add(ids.length);
      if (ids.length < batch) break;
    }
  }
  return { expired, purged };
}
