// A room member presses a button of a bot's message: the press is stored (the bot answers it by its id) and a
// bot.callback_query event is written; the outbox relay turns that event into the bot's callback_query update.
import { sql } from 'kysely';
import { inTransaction } from '../../platform/db/sql.js';
import { affected, firstRow } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import { chatErrors } from '../base/errors.js';
import { roleIn } from '../base/membership.js';
import { accountsAudience, emit } from '../events/emit.js';
import { chatDb } from '../base/tables.js';
import type { BotDeps } from './deps.js';
import { botErrors } from './errors.js';
import { hasButton, type StoredKeyboard } from '../base/keyboard.js';

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
      const message = await firstRow(
        client,
        chatDb
          .selectFrom('messages as m')
          .leftJoin('bots as b', (join) => join.onRef('b.account_id', '=', 'm.sender_id').on('b.deleted_at', 'is', null))
          .select(['m.recalled_at', 'b.id as bot_id'])
          .select((eb) => [
            eb.ref('m.inline_keyboard').$castTo<StoredKeyboard | null>().as('inline_keyboard'),
            eb
              .exists(
                eb
                  .selectFrom('room_members as rm')
                  .whereRef('rm.room_id', '=', 'm.room_id')
                  .whereRef('rm.account_id', '=', 'm.sender_id')
                  .select(sql<number>`1`.as('one')),
              )
              .as('bot_member'),
          ])
          .where('m.room_id', '=', roomId)
          .where('m.id', '=', messageId),
      );
      if (!message) throw chatErrors.notFound('Message', 'message_not_found');
      if (message.recalled_at !== null || !hasButton(message.inline_keyboard, data)) throw botErrors.noSuchButton();
      if (message.bot_id === null || !message.bot_member) throw botErrors.unavailable();
      await affected(
        client,
        chatDb.insertInto('bot_callback_queries').values({
          id,
          bot_id: message.bot_id,
          room_id: roomId,
          message_id: messageId,
          account_id: caller.accountId,
          data,
          created_at: this.deps.clock.now(),
        }),
      );
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
