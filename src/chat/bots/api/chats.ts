// chat_id as the Bot API takes it: the integer chat.id the bot was shown (a private room's positive id, a group's
// negative one), a user's integer id (the private room the bot shares with that user, as Telegram lets a bot write
// to a user by id), or a room uuid. Anything that is not a room the bot is a member of is "chat not found", so a
// number says nothing about rooms the bot cannot see.
import { isUuid } from '../../../platform/ids.js';
import type { Runner } from '../../../platform/db/typed.js';
import { memberRoom, privateRoomWithUser, roomByNumber } from './chat-queries.js';
import type { BotPrincipal } from './context.js';
import { botApiErrors } from './errors.js';

export type ChatRef = number | string;

/** The number a chat_id holds, or null when it holds none (a uuid, a @channelusername, garbage). */
function chatNumber(chatId: ChatRef): number | null {
  if (typeof chatId === 'number') return Number.isSafeInteger(chatId) ? chatId : null;
  return /^-?\d{1,16}$/.test(chatId) && Number.isSafeInteger(Number(chatId)) ? Number(chatId) : null;
}

/** The room a chat_id names among the bot's rooms; 400 "chat not found" otherwise. */
export async function roomOfChat(db: Runner, bot: BotPrincipal, chatId: ChatRef): Promise<string> {
  if (typeof chatId === 'string' && isUuid(chatId)) {
    const member = await memberRoom(db, chatId.toLowerCase(), bot.accountId);
    if (member) return member;
    throw botApiErrors.chatNotFound();
  }
  const n = chatNumber(chatId);
  if (n === null || n === 0) throw botApiErrors.chatNotFound();
  const room = await roomByNumber(db, n, bot.accountId);
  if (room) return room;
  if (n > 0) {
    const user = await privateRoomWithUser(db, n, bot.accountId);
    if (user) return user;
  }
  throw botApiErrors.chatNotFound();
}
