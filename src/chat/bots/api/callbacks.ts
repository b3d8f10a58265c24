// answerCallbackQuery: once per press, within the 24 hours a press is kept; the answer reaches the user who pressed
// the button as a bot.callback_answered event (audience: that user).
import { inTransaction } from '../../../platform/db/sql.js';
import { accountsAudience, emit } from '../../events/emit.js';
import type { BotDeps } from '../deps.js';
import { updateRetentionMs } from '../updates/prune.js';
import type { BotPrincipal } from './context.js';
import { answerPress } from './callback-queries.js';
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
    const press = await answerPress(client, {
      id: input.callback_query_id,
      botId: bot.id,
      at: now,
      since: new Date(now.getTime() - updateRetentionMs),
    });
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
