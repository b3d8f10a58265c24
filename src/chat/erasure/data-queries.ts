// The statements that remove an account's personal data: the profile fields of its row (the row stays, so its
// messages keep their sender and its id stays taken), and every personal thing it owns. Each is idempotent: run
// again after a crash, it finds nothing left and removes nothing.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, rows } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

/** Uploads one statement removes at most. */
export const uploadBatch = 500;

/** The name every view of an erased account shows (docs/adr/0156-account-erasure.md). */
export const erasedDisplayName = 'Deleted account';

/** Empties the profile: display name (the placeholder), avatar, e-mail, username and metadata. */
export async function blankProfile(client: SqlClient, accountId: string, at: Date): Promise<void> {
  await affected(
    client,
    chatDb
      .updateTable('accounts')
      .set({
        display_name: erasedDisplayName,
        avatar_url: null,
        email: null,
        username: null,
        team: null,
        department: null,
        role: null,
        tags: sql<string[]>`'{}'::text[]`,
        updated_at: at,
      })
      .where('id', '=', accountId),
  );
}

/** Drafts, labels (their room assignments cascade), saved messages, contact requests either way, and reactions. */
export async function deleteOwnedThings(client: SqlClient, accountId: string): Promise<number> {
  let removed = 0;
  removed += await affected(client, chatDb.deleteFrom('drafts').where('account_id', '=', accountId));
  removed += await affected(client, chatDb.deleteFrom('labels').where('owner_id', '=', accountId));
  removed += await affected(client, chatDb.deleteFrom('saved_messages').where('account_id', '=', accountId));
  removed += await affected(
    client,
    chatDb.deleteFrom('contact_requests').where((eb) => eb.or([eb('requester_id', '=', accountId), eb('invitee_id', '=', accountId)])),
  );
  removed += await affected(client, chatDb.deleteFrom('message_reactions').where('account_id', '=', accountId));
  removed += await affected(client, chatDb.deleteFrom('receipt_settings').where('account_id', '=', accountId));
  removed += await affected(client, chatDb.deleteFrom('read_notices').where('sender_id', '=', accountId));
  return removed;
}

/** Reminders (their occurrences first: they reference them) and scheduled messages not yet sent or long done. */
export async function deleteTimedThings(client: SqlClient, accountId: string): Promise<number> {
  const owned = chatDb.selectFrom('reminders').select('id').where('owner_id', '=', accountId);
  let removed = await affected(client, chatDb.deleteFrom('reminder_occurrences').where('reminder_id', 'in', owned));
  removed += await affected(client, chatDb.deleteFrom('reminders').where('owner_id', '=', accountId));
  removed += await affected(client, chatDb.deleteFrom('scheduled_messages').where('sender_id', '=', accountId));
  return removed;
}

/** Deletes a batch of the account's uploads; the ids, whose bytes go after the commit. */
export async function deleteUploads(client: SqlClient, accountId: string): Promise<string[]> {
  const gone = await rows(
    client,
    chatDb
      .deleteFrom('uploads')
      .where(
        'id',
        'in',
        chatDb.selectFrom('uploads').select('id').where('owner_id', '=', accountId).orderBy('id').limit(uploadBatch).forUpdate(),
      )
      .returning('id'),
  );
  return gone.map((r) => r.id);
}

/** Deletes the account's personal exports; the ids, whose archives go after the commit (the archive is stored under its export's id). */
export async function deleteExports(client: SqlClient, accountId: string): Promise<string[]> {
  const gone = await rows(client, chatDb.deleteFrom('account_exports').where('account_id', '=', accountId).returning('id'));
  return gone.map((r) => r.id);
}

export const examples: QueryExamples = {
  deleteExports: (db) => deleteExports(db, example.id),
  blankProfile: (db) => blankProfile(db, example.id, example.at),
  deleteOwnedThings: (db) => deleteOwnedThings(db, example.id),
  deleteTimedThings: (db) => deleteTimedThings(db, example.id),
  deleteUploads: (db) => deleteUploads(db, example.id),
};
