// The Bot API's operations: typed input in, one call, {ok: true, result} out.
import type { components, operations } from '../../../../generated/types/bot.js';
import type { HandlerMap } from '../../../platform/http/typed.js';
import type { BotDeps } from '../deps.js';
import { answerCallbackQuery } from './callbacks.js';
import { botOf, type BotContext, type BotPrincipal } from './context.js';
import type { BotMessages } from './messages.js';
import type { BotUpdates } from './updates.js';
import { deleteWebhook, setWebhook, webhookInfo } from './webhook.js';

export type BotOperations = operations;
export type BotHandlers = HandlerMap<operations, BotContext>;
type Schemas = components['schemas'];

const answer = <T>(result: T, description?: string) => ({
  status: 200 as const,
  body: { ok: true as const, result, ...(description !== undefined ? { description } : {}) },
});

function me(bot: BotPrincipal): Schemas['BotInfo'] {
  return {
    id: bot.apiId,
    is_bot: true,
    first_name: bot.displayName,
    username: bot.username,
    can_join_groups: true,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
  };
}

export function botApiHandlers(deps: BotDeps, messages: BotMessages, updates: BotUpdates): BotHandlers {
  const getUpdates = async (input: { offset?: number | string; limit?: number; timeout?: number; allowed_updates?: string[] }, ctx: BotContext) =>
    answer((await updates.get(botOf(ctx), input, ctx)) as Schemas['Update'][]);
  return {
    async getMe(_input, ctx) {
      return answer(me(botOf(ctx)));
    },
    async getMeByPost(_input, ctx) {
      return answer(me(botOf(ctx)));
    },
    async getUpdates({ query }, ctx) {
      return getUpdates(query ?? {}, ctx);
    },
    async getUpdatesByPost({ body }, ctx) {
      return getUpdates(body ?? {}, ctx);
    },
    async getWebhookInfo(_input, ctx) {
      return answer((await webhookInfo(deps, botOf(ctx))) as Schemas['WebhookInfo']);
    },
    async getWebhookInfoByPost(_input, ctx) {
      return answer((await webhookInfo(deps, botOf(ctx))) as Schemas['WebhookInfo']);
    },
    async setWebhook({ body }, ctx) {
      const { result, description } = await setWebhook(deps, botOf(ctx), body);
      return answer(result, description);
    },
    async deleteWebhook({ body }, ctx) {
      const { result, description } = await deleteWebhook(deps, botOf(ctx), body ?? {});
      return answer(result, description);
    },
    async sendMessage({ body }, ctx) {
      return answer((await messages.send(botOf(ctx), body)) as Schemas['Message']);
    },
    async editMessage({ body }, ctx) {
      return answer((await messages.edit(botOf(ctx), body)) as Schemas['Message']);
    },
    async editMessageText({ body }, ctx) {
      return answer((await messages.edit(botOf(ctx), body)) as Schemas['Message']);
    },
    async deleteMessage({ body }, ctx) {
      return answer(await messages.delete(botOf(ctx), body));
    },
    async answerCallbackQuery({ body }, ctx) {
      return answer(await answerCallbackQuery(deps, botOf(ctx), body));
    },
  };
}
