// Which files a bot may name by file_id: one sent, not purged, and carried by a message that is not recalled, in a
// room the bot is a member of or sent by the bot's account.
import { sql, type Selectable } from 'kysely';
import { firstRow, type Runner } from '../../../platform/db/typed.js';
import { chatDb, type ChatTables } from '../../base/tables.js';
import type { BotPrincipal } from './context.js';
import { uploadOfFileId } from './file-ids.js';

/** A file the bot can see, with its size (set on every COMPLETE upload). */
export type VisibleFile = Pick<Selectable<ChatTables['uploads']>, 'id' | 'file_name' | 'content_type'> & { size: number };

const visibleFileQuery = (id: string, accountId: string) =>
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
    );

export async function visibleFile(db: Runner, bot: BotPrincipal, fileId: string): Promise<VisibleFile | null> {
  const id = uploadOfFileId(fileId);
  if (id === null) return null;
  const row = await firstRow(db, visibleFileQuery(id, bot.accountId));
  return row ? { ...row, size: Number(row.size) } : null;
}
