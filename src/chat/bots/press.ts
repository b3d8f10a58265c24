// A room member presses a button of a bot's message: the press is stored (the bot answers it by its id) and a
// bot.callback_query event is written; the outbox relay turns that event into the bot's callback_query update.
import { inTransaction } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import { chatErrors } from '../base/errors.js';
import { roleIn } from '../base/membership.js';
import { accountsAudience, emit } from '../events/emit.js';
import type { BotDeps } from './deps.js';
import { botErrors } from './errors.js';
import { hasButton } from '../base/keyboard.js';
import { insertPress, pressedMessage } from './keyboard-queries.js';

export interface PressView {
  callbackQueryId: string;
  botId: string;
  roomId: string;
  messageId: string;
  data: string;
}

export class InlineButtonService {
  constructor(private readonly deps: BotDeps) {}

  async press(caller: Caller, roomId: string, messageId: string, data: string): Promise<PressView> {
    const id = newId();
    const botId = await inTransaction(this.deps.sql, async (client) => {
      await roleIn(client, roomId, caller.accountId);
      const message = await pressedMessage(client, roomId, messageId);
      if (!message) throw chatErrors.notFound('Message', 'message_not_found');
      if (message.recalled_at !== null || !hasButton(message.inline_keyboard, data)) throw botErrors.noSuchButton();
      if (message.bot_id === null || !message.bot_member) throw botErrors.unavailable();
      await insertPress(client, {
        id,
        botId: message.bot_id,
        roomId,
        messageId,
        accountId: caller.accountId,
        data,
        at: this.deps.clock.now(),
      });
      await emit(
        client,
        'bot.callback_query',
        { callbackQueryId: id, botId: message.bot_id, roomId, messageId, accountId: caller.accountId, data },
        accountsAudience([caller.accountId]),
      );
      return message.bot_id;
    });
    return { callbackQueryId: id, botId, roomId, messageId, data };
  }
}
