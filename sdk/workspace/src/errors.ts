// Error responses as a typed exception: every method resolves to the body or throws WorkspaceApiError, the core's
// ApiError read from the workspace body { error, message, retry_after? }.
import { ApiError, headerFields, isRecord, unexpectedFields, type UNEXPECTED_RESPONSE } from '@chat-platform/sdk-core';
import type { WorkspaceErrorCode } from './types.js';

export { UNEXPECTED_RESPONSE, parseRetryAfter } from '@chat-platform/sdk-core';

/** An error response of the workspace API. `message` is the server's message (a 403 names the missing scope). */
export class WorkspaceApiError extends ApiError<WorkspaceErrorCode, never> {
  override readonly name = 'WorkspaceApiError';
  /** The body's error: unauthorized, forbidden, ip_not_allowed, rate_limit_exceeded, internal_error, invalid_request, not_found, ... */
  declare readonly code: WorkspaceErrorCode | typeof UNEXPECTED_RESPONSE;
}

/** Reads openapi-fetch's parsed error body (JSON when it parsed, else the text, else undefined) into the error. */
export function toWorkspaceApiError(body: unknown, response: Response): WorkspaceApiError {
  const headers = headerFields(response);
  if (isRecord(body) && typeof body.error === 'string' && typeof body.message === 'string') {
    return new WorkspaceApiError({
      status: response.status,
      code: body.error as WorkspaceErrorCode,
      message: body.message,
      // The workspace body carries no details; the message says what was wrong.
      details: undefined,
      requestId: headers.requestId,
      retryAfter: headers.retryAfter ?? (typeof body.retry_after === 'number' ? body.retry_after : undefined),
      body,
      response,
    });
  }
  return new WorkspaceApiError(unexpectedFields(body, response));
}
