// A member's current reply keyboard in a room, as Telegram keeps it: the latest bot message that showed or removed
// a keyboard for that member decides, until a later one does. Nothing is written when a keyboard is used: a oneTime
// keyboard ends once the member has sent the text of one of its buttons after it, which is found when asked, so
// the chat's send path does no work for keyboards.
import { sql } from 'kysely';
import { firstRow } from '../../platform/db/typed.js';
import type { Caller } from '../base/context.js';
import { roleIn } from '../base/membership.js';
import { chatReplyKeyboard, type ChatReplyKeyboard, type StoredReplyMarkup } from '../base/reply-keyboard.js';
import { chatDb } from '../base/tables.js';
import type { BotDeps } from './deps.js';

export interface ReplyKeyboardState {
  messageId: string | null;
  keyboard: ChatReplyKeyboard | null;
}

const none: ReplyKeyboardState = { messageId: null, keyboard: null };

/** The room's latest message (not recalled) that shows or removes a keyboard for the account. */
const latestFor = (roomId: string, accountId: string) =>
  chatDb
    .selectFrom('messages as m')
    .select(['m.id', 'm.seq', sql<StoredReplyMarkup>`m.reply_markup`.as('markup')])
    .where('m.room_id', '=', roomId)
    .where('m.reply_markup', 'is not', null)
    .where('m.recalled_at', 'is', null)
    .where(sql<string>`m.reply_markup->>'kind'`, 'in', ['keyboard', 'remove_keyboard'])
    .where((eb) =>
      eb.or([
        eb(sql<boolean>`(m.reply_markup->>'selective')::boolean`, '=', false),
        eb(sql<boolean>`m.reply_markup->'recipients' ? ${accountId}`, '=', true),
      ]),
    )
    .orderBy('m.seq', 'desc')
    .limit(1);

/** Whether the account sent one of the texts in the room after the message of sequence number `after`. */
const sentOneOf = (roomId: string, accountId: string, after: number, texts: string[]) =>
  chatDb
    .selectFrom('messages')
    .select(sql<number>`1`.as('one'))
    .where('room_id', '=', roomId)
    .where('sender_id', '=', accountId)
    .where('seq', '>', after)
    .where('text', '=', sql<string>`any(${texts}::text[])`)
    .limit(1);

export class ReplyKeyboardService {
  constructor(private readonly deps: BotDeps) {}

  async current(caller: Caller, roomId: string): Promise<ReplyKeyboardState> {
    await roleIn(this.deps.sql, roomId, caller.accountId);
    const latest = await firstRow(this.deps.sql, latestFor(roomId, caller.accountId));
    if (!latest || latest.markup.kind !== 'keyboard') return none;
    if (latest.markup.one_time_keyboard) {
      const texts = latest.markup.keyboard.flat().map((b) => b.text);
      if (await firstRow(this.deps.sql, sentOneOf(roomId, caller.accountId, latest.seq, texts))) return none;
    }
    return { messageId: latest.id, keyboard: chatReplyKeyboard(latest.markup) };
  }
}
