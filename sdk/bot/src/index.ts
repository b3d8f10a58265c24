// @chat-platform/bot-sdk: a typed client for the Bot API, built on openapi-fetch and the generated schema.
export { createBotClient } from './client.js';
export type { BotClient, BotClientExtras, BotClientOptions, PollOptions } from './client.js';
export { BotApiError, UNEXPECTED_RESPONSE, toBotApiError } from './errors.js';
export { ApiError, defaultSleep } from '@chat-platform/sdk-core';
export type { CommonClientOptions, RetryOptions, Sleep } from '@chat-platform/sdk-core';
export { operationIds, operationRoutes } from './operations.js';
export type { HttpMethod, OperationId, RouteOf } from './operations.js';
export type {
  BotInfo,
  BotOperations,
  CallOptions,
  ErrorBody,
  InlineKeyboardMarkup,
  InputOf,
  Message,
  ResponseParameters,
  ResultOf,
  Schemas,
  Update,
  WebhookInfo,
} from './types.js';
export type * from './schema.js';
