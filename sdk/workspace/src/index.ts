// @chat-platform/workspace-sdk: typed clients for the workspace API (svc_ key) and its key administration (bearer
// JWT), built on openapi-fetch and the generated schema.
export { createWorkspaceClient } from './client.js';
export type { WorkspaceClient, WorkspaceClientExtras, WorkspaceClientOptions } from './client.js';
export { createWorkspaceAdminClient } from './admin-client.js';
export type { WorkspaceAdminClient, WorkspaceAdminClientExtras, WorkspaceAdminClientOptions } from './admin-client.js';
export { bearerAuth } from './common.js';
export type { CommonClientOptions, TokenProvider } from './common.js';
export { WorkspaceApiError, UNEXPECTED_RESPONSE, parseRetryAfter, toWorkspaceApiError } from './errors.js';
export { adminOperationIds, adminOperationRoutes, keyOperationIds, keyOperationRoutes, repeatableOperations } from './operations.js';
export type { AdminOperationId, HttpMethod, KeyOperationId, OperationId, RouteOf } from './operations.js';
export type { AdminPaginatedOperationId, ItemOf, KeyPaginatedOperationId, PageOf, PaginatedOperationId } from './pagination.js';
export { ApiError, defaultSleep } from '@chat-platform/sdk-core';
export { verifyWebhook, WebhookVerificationError } from './webhooks.js';
export type {
  VerifiedWebhook,
  VerifyWebhookOptions,
  WebhookDataOf,
  WebhookDeliveryHeadersOf,
  WebhookEnvelope,
  WebhookEnvelopeOf,
  WebhookEventName,
  WebhookHeaders,
  WebhookVerificationFailure,
} from './webhooks.js';
export type { ResultWithResponse, RetryOptions, Sleep } from '@chat-platform/sdk-core';
export type {
  CallOptions,
  ErrorBody,
  OperationArgs,
  OperationData,
  OperationInput,
  OperationQuery,
  Schemas,
  SuccessBody,
  WorkspaceAdminOperations,
  WorkspaceErrorCode,
  WorkspaceOperations,
} from './types.js';
/** The generated schema types (paths, operations, components, ...). */
export type * from './schema.js';
export type { Client as RawClient, Middleware } from 'openapi-fetch';
