// The statements of expunging messages for good: what hangs off them goes by the foreign keys' cascades (reactions,
// room and personal pins, mentions, saved cards, hides, polls, thread follows, callback queries); what only names
// them (a room's banner, a thread root's counters, an upload's bytes) is corrected here.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, rows } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatTopic, outboxInsertFrom } from '../events/emit.js';
import { chatDb } from '../base/tables.js';

/** The rooms of the messages that still exist among `ids`. */
export async function roomsOf(client: SqlClient, ids: readonly string[]): Promise<string[]> {
  const found = await rows(client, chatDb.selectFrom('messages').select('room_id').distinct().where('id', 'in', ids));
  return found.map((r) => r.room_id);
}

/**
 * Takes a banner that is one of `ids` off its room. Only rooms whose banner it is are locked (the predicate is
 * checked before the row lock), and before any message: the order a send takes (room, then message).
 */
export async function clearBanners(client: SqlClient, roomIds: readonly string[], ids: readonly string[]): Promise<number> {
  return affected(
    client,
    chatDb
      .updateTable('rooms')
      .set({ snap_message_id: null, snapped_by: null, snapped_at: null })
      .where('id', 'in', roomIds)
      .where('snap_message_id', 'in', ids),
  );
}

/** Deletes the messages (their dependants by cascade); the deleted ones with what the corrections need. */
export async function deleteMessages(client: SqlClient, ids: readonly string[]) {
  return rows(client, chatDb.deleteFrom('messages').where('id', 'in', ids).returning(['id', 'room_id', 'thread_root_id', 'attachments']));
}

/** Recounts the thread summaries of these roots from the replies that are left. */
export async function recountThreads(client: SqlClient, rootIds: readonly string[]): Promise<number> {
  return affected(
    client,
    chatDb
      .updateTable('messages as r')
      .set((eb) => {
        const replies = eb.selectFrom('messages as x').whereRef('x.thread_root_id', '=', 'r.id');
        // the newest remaining reply by the messages_thread index (thread_root_id, seq)
        const newest = replies.orderBy('x.seq', 'desc').limit(1);
        return {
          reply_count: replies.select(sql<number>`count(*)::int`.as('n')),
          last_reply_at: newest.select('x.created_at'),
          last_reply_id: newest.select('x.id'),
        };
      })
      .where('r.id', 'in', rootIds),
  );
}

/** The owner-only audience of an upload event, as the payload's `audience` (owner_id of the changed row). */
const ownerAudience = sql`jsonb_build_object('kind', 'accounts', 'accountIds', jsonb_build_array(owner_id))`;

/**
 * Marks purged the uploads among `uploadIds` that no remaining unrecalled message carries (a forwarded copy keeps a file), with
 * their upload.purged events; their ids, whose bytes go after the commit.
 */
export async function purgeUncarried(client: SqlClient, uploadIds: readonly string[], now: Date): Promise<string[]> {
  const statement = chatDb
    .with('gone', (db) =>
      db
        .updateTable('uploads as u')
        .set({ purged_at: now })
        .where('u.id', 'in', uploadIds)
        .where('u.attached_at', 'is not', null)
        .where('u.purged_at', 'is', null)
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
        .returning(['u.id', 'u.owner_id']),
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
  return (await rows(client, statement)).map((r) => r.id);
}

export const examples: QueryExamples = {
  roomsOf: (db) => roomsOf(db, [example.id]),
  clearBanners: (db) => clearBanners(db, [example.id], [example.otherId]),
  deleteMessages: (db) => deleteMessages(db, [example.id]),
  recountThreads: (db) => recountThreads(db, [example.id]),
  purgeUncarried: (db) => purgeUncarried(db, [example.id], example.at),
};
