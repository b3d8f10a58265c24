// The chat service's error envelope: { error: { code, message, details? }, meta: { requestId } }.
// The catalogue of codes is written down in docs/errors.md.
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
  unauthenticated: () => new AppError(401, 'unauthenticated', 'An Authorization header with a Bearer token is required.', [{ location: 'header.authorization', message: 'is required' }]),
  tokenMalformed: (why: string) => new AppError(401, 'token_malformed', `The bearer token is not a well-formed JWT: ${why}.`, [{ location: 'header.authorization', message: why }]),
  tokenInvalid: (why: string) => new AppError(401, 'token_invalid', `The bearer token was refused: ${why}.`),
  tokenExpired: () => new AppError(401, 'token_expired', 'The bearer token has expired.'),
  unknownSigningKey: () => new AppError(401, 'unknown_signing_key', 'No verify key is registered for the token issuer, customer and key id.'),
  audienceMismatch: (expected: string) => new AppError(401, 'token_audience_mismatch', `The bearer token is not meant for this service (audience must be "${expected}").`),
  accountUnknown: () => new AppError(401, 'account_unknown', 'The token subject is not a registered account.'),
  accountDeactivated: () => new AppError(403, 'account_deactivated', 'The account is deactivated.'),
  accountBanned: () => new AppError(403, 'account_banned', 'The account is banned.'),
  platformAdminRequired: () => new AppError(403, 'platform_admin_required', 'Only platform administrators may call this operation.'),
  forbidden: (why: string) => new AppError(403, 'forbidden', why),
  notFound: (what: string, code: string) => new AppError(404, code, `${what} was not found.`),
  conflict: (code: string, message: string) => new AppError(409, code, message),
  invalid: (location: string, message: string) => new AppError(400, 'validation_failed', `The request is invalid: ${location} ${message}`, [{ location, message }]),
  invalidCursor: (location: string) => new AppError(400, 'invalid_cursor', `${location} is not a cursor this service issued.`, [{ location, message: 'is not a valid cursor' }]),
};
