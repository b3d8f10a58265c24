// The route table of the Bot API: one entry per operationId of generated/openapi/bot.json. As in the chat SDK, the
// mapped `satisfies` makes a new operation of the spec a type error until it is routed here, and RouteOf<K> only
// admits the (method, path) pairs whose operation type is operations[K].
import type { operations, paths } from './schema.js';

export type OperationId = keyof operations;

export type HttpMethod = 'get' | 'post';

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export type RouteOf<K extends OperationId> = {
  [P in keyof paths]: {
    [M in HttpMethod & keyof paths[P]]: Same<NonNullable<paths[P][M]>, operations[K]> extends true
      ? { readonly method: M; readonly path: P }
      : never;
  }[HttpMethod & keyof paths[P]];
}[keyof paths];

export const operationRoutes = {
  getMe: { method: 'get', path: '/bot/{token}/getMe' },
  getMeByPost: { method: 'post', path: '/bot/{token}/getMe' },
  getUpdates: { method: 'get', path: '/bot/{token}/getUpdates' },
  getUpdatesByPost: { method: 'post', path: '/bot/{token}/getUpdates' },
  getWebhookInfo: { method: 'get', path: '/bot/{token}/getWebhookInfo' },
  getWebhookInfoByPost: { method: 'post', path: '/bot/{token}/getWebhookInfo' },
  setWebhook: { method: 'post', path: '/bot/{token}/setWebhook' },
  deleteWebhook: { method: 'post', path: '/bot/{token}/deleteWebhook' },
  sendMessage: { method: 'post', path: '/bot/{token}/sendMessage' },
  editMessage: { method: 'post', path: '/bot/{token}/editMessage' },
  editMessageText: { method: 'post', path: '/bot/{token}/editMessageText' },
  deleteMessage: { method: 'post', path: '/bot/{token}/deleteMessage' },
  answerCallbackQuery: { method: 'post', path: '/bot/{token}/answerCallbackQuery' },
  getChat: { method: 'post', path: '/bot/{token}/getChat' },
  getChatMember: { method: 'post', path: '/bot/{token}/getChatMember' },
  getChatMemberCount: { method: 'post', path: '/bot/{token}/getChatMemberCount' },
  sendChatAction: { method: 'post', path: '/bot/{token}/sendChatAction' },
  setMyCommands: { method: 'post', path: '/bot/{token}/setMyCommands' },
  getMyCommands: { method: 'post', path: '/bot/{token}/getMyCommands' },
  deleteMyCommands: { method: 'post', path: '/bot/{token}/deleteMyCommands' },
  pinChatMessage: { method: 'post', path: '/bot/{token}/pinChatMessage' },
  unpinChatMessage: { method: 'post', path: '/bot/{token}/unpinChatMessage' },
  forwardMessage: { method: 'post', path: '/bot/{token}/forwardMessage' },
  copyMessage: { method: 'post', path: '/bot/{token}/copyMessage' },
  sendDocument: { method: 'post', path: '/bot/{token}/sendDocument' },
  sendPhoto: { method: 'post', path: '/bot/{token}/sendPhoto' },
  getFile: { method: 'post', path: '/bot/{token}/getFile' },
  sendVideo: { method: 'post', path: '/bot/{token}/sendVideo' },
  sendAnimation: { method: 'post', path: '/bot/{token}/sendAnimation' },
  sendAudio: { method: 'post', path: '/bot/{token}/sendAudio' },
  sendVoice: { method: 'post', path: '/bot/{token}/sendVoice' },
  sendVideoNote: { method: 'post', path: '/bot/{token}/sendVideoNote' },
  sendMediaGroup: { method: 'post', path: '/bot/{token}/sendMediaGroup' },
  getChatAdministrators: { method: 'post', path: '/bot/{token}/getChatAdministrators' },
  leaveChat: { method: 'post', path: '/bot/{token}/leaveChat' },
  setChatTitle: { method: 'post', path: '/bot/{token}/setChatTitle' },
  setChatDescription: { method: 'post', path: '/bot/{token}/setChatDescription' },
  deleteMessages: { method: 'post', path: '/bot/{token}/deleteMessages' },
  editMessageReplyMarkup: { method: 'post', path: '/bot/{token}/editMessageReplyMarkup' },
  editMessageCaption: { method: 'post', path: '/bot/{token}/editMessageCaption' },
  setMessageReaction: { method: 'post', path: '/bot/{token}/setMessageReaction' },
  sendPoll: { method: 'post', path: '/bot/{token}/sendPoll' },
  stopPoll: { method: 'post', path: '/bot/{token}/stopPoll' },
} as const satisfies { readonly [K in OperationId]: RouteOf<K> };

export const operationIds = Object.keys(operationRoutes) as OperationId[];
