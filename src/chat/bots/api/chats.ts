// chat_id as the Bot API takes it: the integer chat.id the bot was shown (a private room's positive id, a group's
// negative one), a user's integer id (the private room the bot shares with that user, as Telegram lets a bot write
// to a user by id), or a room uuid. Anything that is not a room the bot is a member of is "chat not found", so a
// number says nothing about rooms the bot cannot see.
import { isUuid } from '../../../platform/ids.js';
import type { SqlClient, SqlPool } from '../../../platform/db/sql.js';
import type { BotPrincipal } from './context.js';
import { botApiErrors } from './errors.js';

export type ChatRef = number | string;

/** The number a chat_id holds, or null when it holds none (a uuid, a @channelusername, garbage). */
function chatNumber(chatId: ChatRef): number | null {
  if (typeof chatId === 'number') return Number.isSafeInteger(chatId) ? chatId : null;
  return /^-?\d{1,16}$/.test(chatId) && Number.isSafeInteger(Number(chatId)) ? Number(chatId) : null;
}

const byRoomNumber = `
  select r.id from rooms r join room_members m on m.room_id = r.id and m.account_id = $2
   where r.bot_api_id = abs($1::bigint) and (r.type = 'PRIVATE') = ($1::bigint > 0)`;

const byUserNumber = `
  select r.id from accounts a
    join room_members o on o.account_id = a.id
    join rooms r on r.id = o.room_id and r.type = 'PRIVATE'
    join room_members m on m.room_id = r.id and m.account_id = $2
   where a.bot_api_id = $1 and a.id <> $2
   order by r.id limit 1`;

/** The room a chat_id names among the bot's rooms; 400 "chat not found" otherwise. */
export async function roomOfChat(db: SqlPool | SqlClient, bot: BotPrincipal, chatId: ChatRef): Promise<string> {
  if (typeof chatId === 'string' && isUuid(chatId)) {
    const { rows } = await db.query<{ room_id: string }>('select room_id from room_members where room_id = $1 and account_id = $2', [
      chatId.toLowerCase(),
      bot.accountId,
    ]);
    if (rows[0]) return rows[0].room_id;
    throw botApiErrors.chatNotFound();
  }
  const n = chatNumber(chatId);
  if (n === null || n === 0) throw botApiErrors.chatNotFound();
  const room = await db.query<{ id: string }>(byRoomNumber, [n, bot.accountId]);
  if (room.rows[0]) return room.rows[0].id;
  if (n > 0) {
    const user = await db.query<{ id: string }>(byUserNumber, [n, bot.accountId]);
    if (user.rows[0]) return user.rows[0].id;
  }
  throw botApiErrors.chatNotFound();
}
