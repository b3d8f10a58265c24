// chat_id as the Bot API takes it: the integer chat.id the bot was shown (a private room's positive id, a group's
// negative one), a user's integer id (the private room the bot shares with that user, as Telegram lets a bot write
// to a user by id), or a room uuid. Anything that is not a room the bot is a member of is "chat not found", so a
// number says nothing about rooms the bot cannot see.
import { isUuid } from '../../../platform/ids.js';
import { sql } from 'kysely';
import { firstRow, type Runner } from '../../../platform/db/typed.js';
import { chatDb } from '../../base/tables.js';
import type { BotPrincipal } from './context.js';
import { botApiErrors } from './errors.js';

export type ChatRef = number | string;

/** The number a chat_id holds, or null when it holds none (a uuid, a @channelusername, garbage). */
function chatNumber(chatId: ChatRef): number | null {
  if (typeof chatId === 'number') return Number.isSafeInteger(chatId) ? chatId : null;
  return /^-?\d{1,16}$/.test(chatId) && Number.isSafeInteger(Number(chatId)) ? Number(chatId) : null;
}

/** The room whose integer id is n's absolute value: private when n is positive, a group when negative. */
const byRoomNumber = (n: number, accountId: string) =>
  chatDb
    .selectFrom('rooms as r')
    .innerJoin('room_members as m', (join) => join.onRef('m.room_id', '=', 'r.id').on('m.account_id', '=', accountId))
    .select('r.id')
    .where(sql<boolean>`r.bot_api_id = abs(${n}::bigint) and (r.type = 'PRIVATE') = (${n}::bigint > 0)`);

/** The private room the bot shares with the user whose integer id is n. */
const byUserNumber = (n: number, accountId: string) =>
  chatDb
    .selectFrom('accounts as a')
    .innerJoin('room_members as o', 'o.account_id', 'a.id')
    .innerJoin('rooms as r', (join) => join.onRef('r.id', '=', 'o.room_id').on('r.type', '=', 'PRIVATE'))
    .innerJoin('room_members as m', (join) => join.onRef('m.room_id', '=', 'r.id').on('m.account_id', '=', accountId))
    .select('r.id')
    .where('a.bot_api_id', '=', n)
    .where('a.id', '<>', accountId)
    .orderBy('r.id')
    .limit(1);

/** The room a chat_id names among the bot's rooms; 400 "chat not found" otherwise. */
export async function roomOfChat(db: Runner, bot: BotPrincipal, chatId: ChatRef): Promise<string> {
  if (typeof chatId === 'string' && isUuid(chatId)) {
    const member = await firstRow(
      db,
      chatDb
        .selectFrom('room_members')
        .select('room_id')
        .where('room_id', '=', chatId.toLowerCase())
        .where('account_id', '=', bot.accountId),
    );
    if (member) return member.room_id;
    throw botApiErrors.chatNotFound();
  }
  const n = chatNumber(chatId);
  if (n === null || n === 0) throw botApiErrors.chatNotFound();
  const room = await firstRow(db, byRoomNumber(n, bot.accountId));
  if (room) return room.id;
  if (n > 0) {
    const user = await firstRow(db, byUserNumber(n, bot.accountId));
    if (user) return user.id;
  }
  throw botApiErrors.chatNotFound();
}
