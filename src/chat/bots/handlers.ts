import { callerOf } from '../base/context.js';
import { ok, okList } from '../base/envelope.js';
import type { ChatFeatureHandlers } from '../base/handler-types.js';
import type { InlineButtonService } from './press.js';
import type { ReplyKeyboardService } from './reply-keyboards.js';
import type { BotAdminService } from './service.js';

type BotOperations =
  | 'listBots'
  | 'createBot'
  | 'getBot'
  | 'updateBot'
  | 'deleteBot'
  | 'setBotWebhook'
  | 'regenerateBotToken'
  | 'setBotRoomReadAll'
  | 'listWebhooks'
  | 'createWebhook'
  | 'pressInlineButton'
  | 'getReplyKeyboard';

// Path ids are compared in code as well as in SQL, so they are taken in lower case.
const id = (raw: string) => raw.toLowerCase();

export function botHandlers(
  bots: BotAdminService,
  buttons: InlineButtonService,
  keyboards: ReplyKeyboardService,
): ChatFeatureHandlers<BotOperations> {
  return {
    async listBots({ query }, ctx) {
      const page = await bots.list(callerOf(ctx), query ?? {});
      return okList(ctx, page.items, page);
    },
    async createBot({ body }, ctx) {
      return ok(ctx, await bots.create(callerOf(ctx), body));
    },
    async getBot({ params }, ctx) {
      return ok(ctx, await bots.get(callerOf(ctx), id(params.id)));
    },
    async updateBot({ params, body }, ctx) {
      return ok(ctx, await bots.update(callerOf(ctx), id(params.id), body));
    },
    async deleteBot({ params }, ctx) {
      return ok(ctx, await bots.delete(callerOf(ctx), id(params.id)));
    },
    async setBotWebhook({ params, body }, ctx) {
      return ok(ctx, await bots.setWebhook(callerOf(ctx), id(params.id), body));
    },
    async regenerateBotToken({ params }, ctx) {
      return ok(ctx, await bots.regenerateToken(callerOf(ctx), id(params.id)));
    },
    async setBotRoomReadAll({ params, body }, ctx) {
      return ok(ctx, await bots.setRoomReadAll(callerOf(ctx), id(params.id), id(params.roomId), body.readAll));
    },
    async listWebhooks({ query }, ctx) {
      const page = await bots.listWebhooks(callerOf(ctx), query ?? {});
      return okList(ctx, page.items, page);
    },
    async createWebhook({ body }, ctx) {
      return ok(ctx, await bots.createWebhook(callerOf(ctx), { ...body, botId: id(body.botId) }));
    },
    async pressInlineButton({ params, body }, ctx) {
      return ok(ctx, await buttons.press(callerOf(ctx), id(params.roomId), id(params.messageId), body.data));
    },
    async getReplyKeyboard({ params }, ctx) {
      return ok(ctx, await keyboards.current(callerOf(ctx), id(params.roomId)));
    },
  };
}
