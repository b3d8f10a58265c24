// The chat service's error envelope: { error: { code, message, details? }, meta: { requestId } }.
// The catalogue of codes is error-codes.ts, written down in docs/errors.md.
import { bearerErrors } from '../../core/auth/errors.js';
import { AppError, type ErrorDetail } from '../../platform/http/app-error.js';
import type { ChatErrorCode } from './error-codes.js';
import type { ErrorRendering, ErrorRequest } from '../../platform/http/server.js';

export function renderChatError(error: AppError, request: ErrorRequest): ErrorRendering {
  return {
    body: {
      error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
      meta: { requestId: request.id },
    },
  };
}

/** An error of the chat service: its code must be one of the catalogue's. */
export function chatError(
  status: number,
  code: ChatErrorCode,
  message: string,
  details?: ErrorDetail[],
  headers?: Record<string, string>,
): AppError {
  return new AppError(status, code, message, details, headers);
}

export const chatErrors = {
  ...bearerErrors,
  platformAdminRequired: () => chatError(403, 'platform_admin_required', 'Only platform administrators may call this operation.'),
  forbidden: (why: string) => chatError(403, 'forbidden', why),
  notFound: (what: string, code: ChatErrorCode) => chatError(404, code, `${what} was not found.`),
  conflict: (code: ChatErrorCode, message: string) => chatError(409, code, message),
  invalid: (location: string, message: string) =>
    chatError(400, 'validation_failed', `The request is invalid: ${location} ${message}`, [{ location, message }]),
  invalidCursor: (location: string) =>
    chatError(400, 'invalid_cursor', `${location} is not a cursor this service issued.`, [{ location, message: 'is not a valid cursor' }]),
};
