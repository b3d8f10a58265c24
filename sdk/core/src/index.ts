// @chat-platform/sdk-core: what the chat, bot, partner and workspace SDKs share.
export { ApiError, UNEXPECTED_RESPONSE, headerFields, isRecord, parseRetryAfter, unexpectedFields } from './errors.js';
export type { ApiErrorInit, ErrorReader } from './errors.js';
export { backoffMs, defaultSleep, retryDelayMs, retryPolicy } from './retry.js';
export type { RetryOptions, RetryPolicy, Sleep } from './retry.js';
export { isRepeatable, send } from './transport.js';
export type { LooseInput, LooseRequest, ResultWithResponse, Route, SendOptions } from './transport.js';
export { bearerAuth, tokenProvider, underlying } from './client.js';
export type { CommonClientOptions, TokenOptions, TokenProvider, Underlying } from './client.js';
export { items, pages } from './pagination.js';
export type { PageShape } from './pagination.js';
