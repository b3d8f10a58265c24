// @chat-platform/chat-sdk: a typed client for the chat API, built on openapi-fetch and the generated schema.
export { createChatClient, bearerAuth } from './client.js';
export type { ChatClient, ChatClientExtras, ChatClientOptions, TokenProvider } from './client.js';
export { ChatApiError, UNEXPECTED_RESPONSE, toChatApiError } from './errors.js';
export { ApiError, defaultSleep } from '@chat-platform/sdk-core';
export type { CommonClientOptions, ResultWithResponse, RetryOptions, Sleep } from '@chat-platform/sdk-core';
export { operationRoutes, operationIds } from './operations.js';
export type { HttpMethod, OperationId, RouteOf } from './operations.js';
export { cursorParams } from './pagination.js';
export { connectRealtime, EVENTS_DESTINATION, SESSION_DESTINATION } from './realtime.js';
export type {
  RealtimeConnection,
  RealtimeError,
  RealtimeEvent,
  RealtimeEventOf,
  RealtimeOptions,
  RealtimePayloadOf,
  RealtimeTopic,
  SessionNotice,
  WebSocketFactory,
} from './realtime.js';
export type { CursorParamOf, ItemOf, ListOperationId, PaginatedOperationId } from './pagination.js';
export type {
  CallOptions,
  ChatError,
  ChatErrorCode,
  ChatOperations,
  ChatResult,
  ChatSuccess,
  ErrorDetail,
  ErrorEnvelope,
  OperationArgs,
  OperationData,
  OperationInput,
  OperationMeta,
  Schemas,
  SuccessBody,
} from './types.js';
/** The generated schema types (paths, operations, components, ...). */
export type * from './schema.js';
export type { Client as RawClient, Middleware } from 'openapi-fetch';
