// The chat service's error envelope: { error: { code, message, details? }, meta: { requestId } }.
// The catalogue of codes is written down in docs/errors.md.
import { bearerErrors } from '../core/auth/errors.js';
import { AppError } from '../platform/http/app-error.js';
import type { ErrorRendering, ErrorRequest } from '../platform/http/server.js';

export function renderChatError(error: AppError, request: ErrorRequest): ErrorRendering {
  return {
    body: {
      error: { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) },
      meta: { requestId: request.id },
    },
  };
}

export const chatErrors = {
  ...bearerErrors,
  platformAdminRequired: () => new AppError(403, 'platform_admin_required', 'Only platform administrators may call this operation.'),
  forbidden: (why: string) => new AppError(403, 'forbidden', why),
  notFound: (what: string, code: string) => new AppError(404, code, `${what} was not found.`),
  conflict: (code: string, message: string) => new AppError(409, code, message),
  invalid: (location: string, message: string) => new AppError(400, 'validation_failed', `The request is invalid: ${location} ${message}`, [{ location, message }]),
  invalidCursor: (location: string) => new AppError(400, 'invalid_cursor', `${location} is not a cursor this service issued.`, [{ location, message: 'is not a valid cursor' }]),
};
