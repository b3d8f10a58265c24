// A sent message's markup, written inside the send's transaction: an inline keyboard as it was, reply markup with
// its recipients when selective (Telegram's rule: the members the text mentions by @username, and the sender of the
// message replied to), resolved once here so every view and the members' current keyboards agree. A private room
// has one recipient, who is always meant: selective does not narrow it there.
import type { Queryable } from '../../../platform/db/queryable.js';
import type { StoredReplyMarkup } from '../../base/reply-keyboard.js';
import { mentionCandidates } from '../../mentions/parse.js';
import { botApiErrors } from './errors.js';
import { membersByUsername, privatePeer } from './member-queries.js';
import { setMessageMarkup } from './message-queries.js';
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
  return membersByUsername(client, roomId, names);
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
  await setMessageMarkup(client, message.id, set);
}
