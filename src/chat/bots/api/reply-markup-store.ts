// A sent message's markup, written inside the send's transaction: an inline keyboard as it was, reply markup with
// its recipients when selective (Telegram's rule: the members the text mentions by @username, and the sender of the
// message replied to), resolved once here so every view and the members' current keyboards agree. A private room
// has one recipient, who is always meant: selective does not narrow it there.
import { sql } from 'kysely';
import type { Queryable } from '../../../platform/db/queryable.js';
import { affected, rows } from '../../../platform/db/typed.js';
import { chatDb } from '../../base/tables.js';
import type { StoredReplyMarkup } from '../../base/reply-keyboard.js';
import { mentionCandidates } from '../../mentions/parse.js';
import { botApiErrors } from './errors.js';
import { readReplyMarkup, type ReadMarkup } from './reply-markup.js';

/** The markup a send keeps (null without one); refused markup is Telegram's 400. */
export function markupOf(markup: unknown): ReadMarkup | null {
  if (markup === undefined) return null;
  const read = readReplyMarkup(markup);
  if (typeof read === 'string') throw botApiErrors.badRequest(read);
  return read;
}

export interface SentMessage {
  id: string;
  roomId: string;
  senderId: string;
  text: string;
  /** The sender of the message this one replies to. */
  repliedSender?: string;
}

/** Members of the room named by @username in the text. */
async function mentionedMembers(client: Queryable, roomId: string, text: string): Promise<string[]> {
  const names = [...new Set(mentionCandidates(text).flatMap((c) => (c.n === null ? [] : [c.n])))];
  if (names.length === 0) return [];
  const found = await rows(
    client,
    chatDb
      .selectFrom('room_members as rm')
      .innerJoin('accounts as a', 'a.id', 'rm.account_id')
      .select('rm.account_id')
      .where('rm.room_id', '=', roomId)
      .where(sql<string>`lower(a.username)`, '=', sql<string>`any(${names}::text[])`),
  );
  return found.map((r) => r.account_id);
}

/** The other member of a private room; none in any other room. */
async function privatePeer(client: Queryable, roomId: string, senderId: string): Promise<string[]> {
  const found = await rows(
    client,
    chatDb
      .selectFrom('room_members as rm')
      .innerJoin('rooms as r', 'r.id', 'rm.room_id')
      .select('rm.account_id')
      .where('rm.room_id', '=', roomId)
      .where('r.type', '=', 'PRIVATE')
      .where('rm.account_id', '!=', senderId),
  );
  return found.map((r) => r.account_id);
}

async function withRecipients(client: Queryable, message: SentMessage, markup: StoredReplyMarkup): Promise<StoredReplyMarkup> {
  if (!markup.selective) return markup;
  const recipients = new Set([
    ...(await privatePeer(client, message.roomId, message.senderId)),
    ...(await mentionedMembers(client, message.roomId, message.text)),
  ]);
  if (message.repliedSender !== undefined) recipients.add(message.repliedSender);
  return { ...markup, recipients: [...recipients] };
}

export async function storeMarkup(client: Queryable, message: SentMessage, markup: ReadMarkup): Promise<void> {
  const set =
    'inline' in markup
      ? { inline_keyboard: JSON.stringify(markup.inline) }
      : { reply_markup: JSON.stringify(await withRecipients(client, message, markup.reply)) };
  await affected(client, chatDb.updateTable('messages').set(set).where('id', '=', message.id));
}
