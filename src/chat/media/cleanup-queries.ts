// The statements of the upload cleanup: each takes a batch of uploads and writes their events in the same statement.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { rows } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatTopic, outboxInsertFrom } from '../events/emit.js';
import { chatDb } from '../base/tables.js';

/** Uploads one statement takes at most. */
export const cleanupBatch = 500;

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
            .limit(cleanupBatch)
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
            .limit(cleanupBatch)
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

/** Deletes a batch of expired, unsent uploads with their upload.expired events; their ids. */
export async function expireUploads(client: SqlClient, now: Date): Promise<string[]> {
  return (await rows(client, expire(now))).map((r) => r.id);
}

/** Marks a batch of sent uploads whose every carrier was recalled as purged, with their upload.purged events; their ids. */
export async function purgeUploads(client: SqlClient, now: Date): Promise<string[]> {
  return (await rows(client, purge(now))).map((r) => r.id);
}

export const examples: QueryExamples = {
  expireUploads: (db) => expireUploads(db, example.at),
  purgeUploads: (db) => purgeUploads(db, example.at),
};
