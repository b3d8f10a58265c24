// A room member presses a button of a bot's message: the press is stored (the bot answers it by its id) and a
// bot.callback_query event is written; the outbox relay turns that event into the bot's callback_query update.
import { inTransaction } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../context.js';
import { chatErrors } from '../errors.js';
import { roleIn } from '../rooms/membership.js';
import { accountsAudience, emit } from '../events/emit.js';
import type { BotDeps } from './deps.js';
import { botErrors } from './errors.js';
import { hasButton, type StoredKeyboard } from './keyboard.js';

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
      const { rows } = await client.query<{
        inline_keyboard: StoredKeyboard | null;
        recalled_at: Date | null;
        bot_id: string | null;
        bot_member: boolean;
      }>(
        `select m.inline_keyboard, m.recalled_at, b.id as bot_id,
                exists (select 1 from room_members rm where rm.room_id = m.room_id and rm.account_id = m.sender_id) as bot_member
           from messages m left join bots b on b.account_id = m.sender_id and b.deleted_at is null
          where m.room_id = $1 and m.id = $2`,
        [roomId, messageId],
      );
      const message = rows[0];
      if (!message) throw chatErrors.notFound('Message', 'message_not_found');
      if (message.recalled_at !== null || !hasButton(message.inline_keyboard, data)) throw botErrors.noSuchButton();
      if (message.bot_id === null || !message.bot_member) throw botErrors.unavailable();
      await client.query(
        `insert into bot_callback_queries (id, bot_id, room_id, message_id, account_id, data, created_at) values ($1, $2, $3, $4, $5, $6, $7)`,
        [id, message.bot_id, roomId, messageId, caller.accountId, data, this.deps.clock.now()],
      );
      await emit(
        client,
        'bot.callback_query',
        { callbackQueryId: id, botId: message.bot_id, roomId, messageId, accountId: caller.accountId, data },
        accountsAudience([caller.accountId]),
      );
      return message.bot_id;
    });
    this.deps.queues.requestOutboxDrain();
    return { callbackQueryId: id, botId, roomId, messageId, data };
  }
}
