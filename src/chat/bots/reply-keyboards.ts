// A member's current reply keyboard in a room, as Telegram keeps it: the latest bot message that showed or removed
// a keyboard for that member decides, until a later one does. Nothing is written when a keyboard is used: a oneTime
// keyboard ends once the member has sent the text of one of its buttons after it, which is found when asked, so
// the chat's send path does no work for keyboards.
import type { Caller } from '../base/context.js';
import { roleIn } from '../base/membership.js';
import { chatReplyKeyboard, type ChatReplyKeyboard } from '../base/reply-keyboard.js';
import type { BotDeps } from './deps.js';
import { latestReplyMarkup, sentOneOf } from './keyboard-queries.js';

export interface ReplyKeyboardState {
  messageId: string | null;
  keyboard: ChatReplyKeyboard | null;
}

const none: ReplyKeyboardState = { messageId: null, keyboard: null };

export class ReplyKeyboardService {
  constructor(private readonly deps: BotDeps) {}

  async current(caller: Caller, roomId: string): Promise<ReplyKeyboardState> {
    await roleIn(this.deps.sql, roomId, caller.accountId);
    const latest = await latestReplyMarkup(this.deps.sql, roomId, caller.accountId);
    if (!latest || latest.markup.kind !== 'keyboard') return none;
    if (latest.markup.one_time_keyboard) {
      const texts = latest.markup.keyboard.flat().map((b) => b.text);
      if (await sentOneOf(this.deps.sql, roomId, caller.accountId, latest.seq, texts)) return none;
    }
    return { messageId: latest.id, keyboard: chatReplyKeyboard(latest.markup) };
  }
}
