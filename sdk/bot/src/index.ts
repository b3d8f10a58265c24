// @chat-platform/bot-sdk: a typed client for the Bot API, built on openapi-fetch and the generated schema.
export { createBotClient } from './client.js';
export type { BotClient, BotClientExtras, BotClientOptions, PollOptions } from './client.js';
export { BotApiError, UNEXPECTED_RESPONSE, toBotError } from './errors.js';
export { operationIds, operationRoutes } from './operations.js';
export type { HttpMethod, OperationId, RouteOf } from './operations.js';
export type {
  BotError,
  BotInfo,
  BotOperations,
  BotResult,
  CallOptions,
  ErrorBody,
  InlineKeyboardMarkup,
  InputOf,
  Message,
  ResultOf,
  Schemas,
  Update,
  WebhookInfo,
} from './types.js';
export type * from './schema.js';
