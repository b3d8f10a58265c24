// @chat-platform/partner-sdk: typed clients for the partner data API (API key) and its workspace administration
// (bearer JWT), built on openapi-fetch and the generated schema.
export { createPartnerClient, apiKeyAuth } from './client.js';
export type { PartnerClient, PartnerClientExtras, PartnerClientOptions } from './client.js';
export { createPartnerAdminClient } from './admin-client.js';
export { bearerAuth } from '@chat-platform/sdk-core';
export type { PartnerAdminClient, PartnerAdminClientExtras, PartnerAdminClientOptions } from './admin-client.js';
export { ApiError, defaultSleep } from '@chat-platform/sdk-core';
export type { ResultWithResponse, RetryOptions, Sleep, TokenProvider } from '@chat-platform/sdk-core';
export type { CommonClientOptions } from './common.js';
export { PartnerApiError, UNEXPECTED_RESPONSE, parseRetryAfter, toPartnerApiError } from './errors.js';
export { scopeCatalogue, scopePresets } from './scopes.js';
export type { ScopeEntry } from './scopes.js';
export { adminOperationIds, adminOperationRoutes, byteResponseOperations, keyOperationIds, keyOperationRoutes } from './operations.js';
export type { AdminOperationId, HttpMethod, KeyOperationId, KeyWriteOperationId, OperationId, RouteOf } from './operations.js';
export type {
  AdminPaginatedOperationId,
  ItemOf,
  KeyPaginatedOperationId,
  ListOperationId,
  PageOf,
  PaginatedOperationId,
} from './pagination.js';
export type {
  CallOptions,
  ErrorEnvelope,
  KeyCallOptions,
  OperationArgs,
  OperationData,
  OperationInput,
  OperationQuery,
  PartnerAdminOperations,
  PartnerErrorCode,
  PartnerOperations,
  Schemas,
  SuccessBody,
  WriteCallOptions,
} from './types.js';
/** The generated schema types (paths, operations, components, ...). */
export type * from './schema.js';
export type { Client as RawClient, Middleware } from 'openapi-fetch';
