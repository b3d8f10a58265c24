// Which files a bot may name by file_id: one sent, not purged, and carried by a message that is not recalled, in a
// room the bot is a member of or sent by the bot's account.
import type { Selectable } from 'kysely';
import type { Runner } from '../../../platform/db/typed.js';
import type { ChatTables } from '../../base/tables.js';
import type { BotPrincipal } from './context.js';
import { uploadOfFileId } from './file-ids.js';
import { visibleUpload } from './file-queries.js';

/** A file the bot can see, with its size (set on every COMPLETE upload). */
export type VisibleFile = Pick<Selectable<ChatTables['uploads']>, 'id' | 'file_name' | 'content_type'> & { size: number };

export async function visibleFile(db: Runner, bot: BotPrincipal, fileId: string): Promise<VisibleFile | null> {
  const id = uploadOfFileId(fileId);
  if (id === null) return null;
  const row = await visibleUpload(db, id, bot.accountId);
  return row ? { ...row, size: Number(row.size) } : null;
}
