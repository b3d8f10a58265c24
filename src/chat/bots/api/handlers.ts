// The Bot API's operations: typed input in, one call, {ok: true, result} out.
import type { components, operations } from '../../../../generated/types/bot.js';
import type { HandlerMap } from '../../../platform/http/typed.js';
import type { BotDeps } from '../deps.js';
import { answerCallbackQuery } from './callbacks.js';
import type { BotChatAdministration } from './chat-admin.js';
import type { BotChatMethods } from './chat-methods.js';
import { botOf, type BotContext, type BotPrincipal } from './context.js';
import type { BotFiles, FileKind, SendFileInput } from './files.js';
import { sendMediaGroup } from './media-groups.js';
import type { BotMessages } from './messages.js';
import type { BotPolls } from './polls.js';
import { setMessageReaction } from './reactions.js';
import type { BotUpdates } from './updates.js';
import { deleteWebhook, setWebhook, webhookInfo } from './webhook.js';
import { formattedText } from './formatted-text.js';

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

export function botApiHandlers(
  deps: BotDeps,
  messages: BotMessages,
  updates: BotUpdates,
  chats: BotChatMethods,
  files: BotFiles,
  administration: BotChatAdministration,
  polls: BotPolls,
): BotHandlers {
  const getUpdates = async (
    input: { offset?: number | string; limit?: number; timeout?: number; allowed_updates?: string[] },
    ctx: BotContext,
  ) => answer((await updates.get(botOf(ctx), input, ctx)) as Schemas['Update'][]);
  const sendFile =
    (kind: FileKind) =>
    async ({ body }: { body: SendFileInput }, ctx: BotContext) =>
      answer((await files.send(botOf(ctx), kind, body, ctx.files)) as Schemas['Message']);
  const editText = async (body: Schemas['EditMessageBody'], ctx: BotContext) => {
    const content = { kind: 'text' as const, ...formattedText('text', body.text, body.parse_mode, body.entities) };
    return answer((await messages.edit(botOf(ctx), body, content)) as Schemas['Message']);
  };
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
      const { parse_mode, entities, ...rest } = body;
      const message = { ...rest, ...formattedText('text', body.text, parse_mode, entities) };
      return answer((await messages.send(botOf(ctx), message)) as Schemas['Message']);
    },
    async editMessage({ body }, ctx) {
      return editText(body, ctx);
    },
    async editMessageText({ body }, ctx) {
      return editText(body, ctx);
    },
    async editMessageCaption({ body }, ctx) {
      const caption = formattedText('caption', body.caption ?? '', body.parse_mode, body.caption_entities);
      return answer((await messages.edit(botOf(ctx), body, { kind: 'caption', ...caption })) as Schemas['Message']);
    },
    async editMessageReplyMarkup({ body }, ctx) {
      return answer((await messages.edit(botOf(ctx), body, { kind: 'markup' })) as Schemas['Message']);
    },
    async deleteMessage({ body }, ctx) {
      return answer(await messages.delete(botOf(ctx), body));
    },
    async answerCallbackQuery({ body }, ctx) {
      return answer(await answerCallbackQuery(deps, botOf(ctx), body));
    },
    async getChat({ body }, ctx) {
      return answer((await chats.getChat(botOf(ctx), body)) as Schemas['ChatFullInfo']);
    },
    async getChatMember({ body }, ctx) {
      return answer((await chats.getChatMember(botOf(ctx), body)) as Schemas['ChatMember']);
    },
    async getChatMemberCount({ body }, ctx) {
      return answer(await chats.getChatMemberCount(botOf(ctx), body));
    },
    async sendChatAction({ body }, ctx) {
      return answer(await chats.sendChatAction(botOf(ctx), body));
    },
    async setMyCommands({ body }, ctx) {
      return answer(await chats.setMyCommands(botOf(ctx), body));
    },
    async getMyCommands(_input, ctx) {
      return answer(await chats.getMyCommands(botOf(ctx)));
    },
    async deleteMyCommands(_input, ctx) {
      return answer(await chats.deleteMyCommands(botOf(ctx)));
    },
    async pinChatMessage({ body }, ctx) {
      return answer(await chats.pinChatMessage(botOf(ctx), body));
    },
    async unpinChatMessage({ body }, ctx) {
      return answer(await chats.unpinChatMessage(botOf(ctx), body));
    },
    async forwardMessage({ body }, ctx) {
      return answer((await chats.forwardMessage(botOf(ctx), body)) as Schemas['Message']);
    },
    async copyMessage({ body }, ctx) {
      return answer(await chats.copyMessage(botOf(ctx), body));
    },
    sendDocument: sendFile('document'),
    sendPhoto: sendFile('photo'),
    sendVideo: sendFile('video'),
    sendAnimation: sendFile('animation'),
    sendAudio: sendFile('audio'),
    sendVoice: sendFile('voice'),
    sendVideoNote: sendFile('video_note'),
    async sendMediaGroup({ body }, ctx) {
      return answer((await sendMediaGroup(deps, files, messages, botOf(ctx), body, ctx.files)) as Schemas['Message'][]);
    },
    async getFile({ body }, ctx) {
      return answer(await files.getFile(botOf(ctx), body.file_id));
    },
    async getChatAdministrators({ body }, ctx) {
      return answer((await administration.getChatAdministrators(botOf(ctx), body)) as Schemas['ChatMember'][]);
    },
    async leaveChat({ body }, ctx) {
      return answer(await administration.leaveChat(botOf(ctx), body));
    },
    async setChatTitle({ body }, ctx) {
      return answer(await administration.setChatTitle(botOf(ctx), body));
    },
    async setChatDescription({ body }, ctx) {
      return answer(await administration.setChatDescription(botOf(ctx), body));
    },
    async deleteMessages({ body }, ctx) {
      return answer(await administration.deleteMessages(botOf(ctx), body));
    },
    async setMessageReaction({ body }, ctx) {
      return answer(await setMessageReaction(deps, botOf(ctx), body));
    },
    async sendPoll({ body }, ctx) {
      return answer((await polls.send(botOf(ctx), body)) as Schemas['Message']);
    },
    async stopPoll({ body }, ctx) {
      return answer((await polls.stop(botOf(ctx), body)) as Schemas['Poll']);
    },
  };
}
