// The workspace interface's error envelope (convention B): { error: <code>, message } (plus retry_after on 429),
// exactly as the seed's table. Every error, framework and shared ones included, is rendered here: errors raised
// by this interface keep their code, any other is named by its status, so the catalogue stays closed.
import { AppError } from '../../platform/http/app-error.js';
import type { ErrorRendering, ErrorRequest } from '../../platform/http/server.js';
import type { WorkspaceErrorCode } from './error-codes.js';

/** An error of this interface: its code is one of the catalogue's (error-codes.ts, docs/workspace.md). */
export class WorkspaceAppError extends AppError {
  constructor(
    status: number,
    code: WorkspaceErrorCode,
    message: string,
    headers?: Record<string, string>,
    readonly retryAfter?: number,
  ) {
    super(status, code, message, undefined, headers);
  }
}

/** The code of an error raised elsewhere (the framework, the shared JWT authentication, partner helpers). */
const codeByStatus: Record<number, WorkspaceErrorCode> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limit_exceeded',
};

const internalMessage = 'An internal error occurred; report it with the X-Request-ID value.';

export function renderWorkspaceError(error: AppError, _request: ErrorRequest): ErrorRendering {
  if (error instanceof WorkspaceAppError) {
    return {
      body: { error: error.code, message: error.message, ...(error.retryAfter !== undefined ? { retry_after: error.retryAfter } : {}) },
    };
  }
  if (error.status === 503) return { body: { error: 'service_unavailable', message: error.message } };
  if (error.status >= 500) return { body: { error: 'internal_error', message: internalMessage } };
  return { body: { error: codeByStatus[error.status] ?? error.code, message: error.message } };
}

export const workspaceErrors = {
  keyMissing: () => new WorkspaceAppError(401, 'unauthorized', 'An Authorization header with "Bearer svc_…" and a valid key is required.'),
  userMissing: () => new WorkspaceAppError(401, 'unauthorized', "A workspace user's bearer token is required."),
  keyInvalid: () => new WorkspaceAppError(401, 'unauthorized', 'The key is wrong, revoked or expired.'),
  keyNotForAdministration: () =>
    new WorkspaceAppError(
      403,
      'forbidden',
      "Key administration and the audit log take a workspace user's bearer token; API keys cannot call them.",
    ),
  scopeMissing: (scope: string, alternatives: string[]) =>
    new WorkspaceAppError(
      403,
      'forbidden',
      `The key lacks the scope ${scope}${alternatives.length ? ` (also granted by ${alternatives.join(', ')})` : ''}; scopes are fixed, so create a key that has it.`,
    ),
  ipNotAllowed: (ip: string) => new WorkspaceAppError(403, 'ip_not_allowed', `The address ${ip} is not in this key's IP allow-list.`),
  ownerOrAdminOnly: () =>
    new WorkspaceAppError(403, 'forbidden', "Only the workspace's Owner and Admin manage its keys and read its audit log."),
  rateLimitExceeded: (window: 'hour' | 'minute', limit: number, retryAfter: number) =>
    new WorkspaceAppError(
      429,
      'rate_limit_exceeded',
      `The workspace made more than ${limit} requests this ${window}; retry in ${retryAfter} s.`,
      { 'retry-after': String(retryAfter) },
      retryAfter,
    ),
  invalid: (field: string, message: string) => new WorkspaceAppError(400, 'invalid_request', `The request is invalid: ${field} ${message}`),
  notFound: (what: string) => new WorkspaceAppError(404, 'not_found', `${what} was not found.`),
  conflict: (message: string) => new WorkspaceAppError(409, 'conflict', message),
  notTheActor: (message: string) => new WorkspaceAppError(403, 'forbidden', message),
};
