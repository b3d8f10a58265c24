// The statements that read chat messages for their Telegram shape (telegram.ts).
import { sql } from 'kysely';
import { rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import type { StoredFormatting } from '../base/formatting.js';
import type { StoredKeyboard } from '../base/keyboard.js';
import { chatDb } from '../base/tables.js';
import type { BotAttachment } from './api/file-views.js';

/** One message with what its Telegram shape needs: sender, room, thread root and the forwarded message's sender. */
const botMessageSelect = chatDb
  .selectFrom('messages as m')
  .innerJoin('accounts as sa', 'sa.id', 'm.sender_id')
  .leftJoin('bots as sb', 'sb.account_id', 'm.sender_id')
  .innerJoin('rooms as r', 'r.id', 'm.room_id')
  .leftJoin('messages as root', 'root.id', 'm.thread_root_id')
  .leftJoin('accounts as ra', 'ra.id', 'root.sender_id')
  .leftJoin('bots as rb', 'rb.account_id', 'root.sender_id')
  .leftJoin('messages as fm', 'fm.id', 'm.forwarded_from_message_id')
  .leftJoin('accounts as fa', 'fa.id', 'fm.sender_id')
  .select((eb) => [
    'm.id',
    'm.room_id',
    'm.seq',
    'm.sender_id',
    'm.text',
    'm.created_at',
    'm.edited_at',
    'm.recalled_at',
    'm.thread_root_id',
    'm.poll_id',
    eb.ref('m.inline_keyboard').$castTo<StoredKeyboard | null>().as('inline_keyboard'),
    eb.ref('m.attachments').$castTo<BotAttachment[] | null>().as('attachments'),
    eb.ref('m.formatting').$castTo<StoredFormatting[] | null>().as('formatting'),
    'sa.display_name as sender_name',
    'sa.account_type as sender_type',
    'sb.username as sender_username',
    'sa.bot_api_id as sender_api_id',
    'r.type as room_type',
    'r.name as room_name',
    'r.bot_api_id as room_api_id',
    'root.seq as root_seq',
    'root.sender_id as root_sender_id',
    'root.text as root_text',
    'root.created_at as root_created_at',
    'root.edited_at as root_edited_at',
    'root.recalled_at as root_recalled_at',
    eb.ref('root.inline_keyboard').$castTo<StoredKeyboard | null>().as('root_inline_keyboard'),
    eb.ref('root.attachments').$castTo<BotAttachment[] | null>().as('root_attachments'),
    eb.ref('root.formatting').$castTo<StoredFormatting[] | null>().as('root_formatting'),
    'ra.display_name as root_sender_name',
    'ra.account_type as root_sender_type',
    'rb.username as root_sender_username',
    'ra.bot_api_id as root_sender_api_id',
    'fa.bot_api_id as origin_sender_api_id',
    'fa.display_name as origin_sender_name',
    'fa.account_type as origin_sender_type',
    'fm.created_at as origin_created_at',
  ]);

export type BotMessageRow = NonNullable<Awaited<ReturnType<typeof botMessageSelect.executeTakeFirst>>>;

/** The messages of the given ids, in no particular order. */
export async function botMessages(db: Runner, ids: string[]): Promise<BotMessageRow[]> {
  return rows(db, botMessageSelect.where(sql<boolean>`m.id = any(${ids}::uuid[])`));
}

export const examples: QueryExamples = {
  botMessages: (db) => botMessages(db, [example.id, example.otherId]),
};
