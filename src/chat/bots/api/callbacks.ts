// answerCallbackQuery: once per press, within the 24 hours a press is kept; the answer reaches the user who pressed
// the button as a bot.callback_answered event (audience: that user).
import { inTransaction } from '../../../platform/db/sql.js';
import { firstRow } from '../../../platform/db/typed.js';
import { chatDb } from '../../base/tables.js';
import { accountsAudience, emit } from '../../events/emit.js';
import type { BotDeps } from '../deps.js';
import { updateRetentionMs } from '../updates/prune.js';
import type { BotPrincipal } from './context.js';
import { botApiErrors } from './errors.js';

export interface AnswerInput {
  callback_query_id: string;
  text?: string;
  show_alert?: boolean;
  url?: string;
}

export async function answerCallbackQuery(deps: BotDeps, bot: BotPrincipal, input: AnswerInput): Promise<true> {
  const now = deps.clock.now();
  await inTransaction(deps.sql, async (client) => {
    const press = await firstRow(
      client,
      chatDb
        .updateTable('bot_callback_queries')
        .set({ answered_at: now })
        .where('id', '=', input.callback_query_id)
        .where('bot_id', '=', bot.id)
        .where('answered_at', 'is', null)
        .where('created_at', '>', new Date(now.getTime() - updateRetentionMs))
        .returning(['room_id', 'message_id', 'account_id']),
    );
    if (!press) throw botApiErrors.badRequest('query is too old and response timeout expired or query ID is invalid');
    await emit(
      client,
      'bot.callback_answered',
      {
        callbackQueryId: input.callback_query_id,
        botId: bot.id,
        roomId: press.room_id,
        messageId: press.message_id,
        text: input.text ?? null,
        showAlert: input.show_alert ?? false,
        url: input.url ?? null,
      },
      accountsAudience([press.account_id]),
    );
  });
  return true;
}
