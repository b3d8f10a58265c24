// The statements of the files a bot names: a file_id's upload when the bot may see it, and the bot's own finished
// upload session.
import { sql } from 'kysely';
import { firstRow, type Runner } from '../../../platform/db/typed.js';
import { example, type QueryExamples } from '../../../platform/db/query-examples.js';
import { chatDb } from '../../base/tables.js';

/**
 * The upload when it is sent, not purged, and carried by a message that is not recalled, in a room the account is a
 * member of or sent by the account.
 */
export async function visibleUpload(db: Runner, id: string, accountId: string) {
  return firstRow(
    db,
    chatDb
      .selectFrom('uploads as u')
      .select(['u.id', 'u.file_name', 'u.content_type', 'u.size'])
      .where('u.id', '=', id)
      .where('u.status', '=', 'COMPLETE')
      .where('u.attached_at', 'is not', null)
      .where('u.purged_at', 'is', null)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('messages as m')
            .select(sql<number>`1`.as('one'))
            .where(sql<boolean>`m.attachments @> ${JSON.stringify([{ id }])}::jsonb`)
            .where('m.recalled_at', 'is', null)
            .where((inner) =>
              inner.or([
                inner('u.owner_id', '=', accountId),
                inner.exists(
                  inner
                    .selectFrom('room_members as rm')
                    .select(sql<number>`1`.as('one'))
                    .whereRef('rm.room_id', '=', 'm.room_id')
                    .where('rm.account_id', '=', accountId),
                ),
              ]),
            ),
        ),
      ),
  );
}

/** Whether the upload is a finished one of the account's own. */
export async function ownCompleteUpload(db: Runner, uploadId: string, accountId: string): Promise<boolean> {
  const own = { id: uploadId, owner_id: accountId, status: 'COMPLETE' as const };
  const upload = await firstRow(
    db,
    chatDb
      .selectFrom('uploads')
      .select('id')
      .where((eb) => eb.and(own)),
  );
  return upload !== undefined;
}

export const examples: QueryExamples = {
  visibleUpload: (db) => visibleUpload(db, example.id, example.otherId),
  ownCompleteUpload: (db) => ownCompleteUpload(db, example.id, example.otherId),
};
