// Errors of bearer JWT authentication, shared by every listener (codes in docs/errors.md; each listener renders
// them in its own envelope).
import { AppError, type ErrorDetail } from '../../platform/http/app-error.js';
import type { BearerErrorCode } from './error-codes.js';

/** The codes are those of error-codes.ts, so a code outside it does not type-check. */
const bearerError = (status: number, code: BearerErrorCode, message: string, details?: ErrorDetail[]) =>
  new AppError(status, code, message, details);

export const bearerErrors = {
  unauthenticated: () =>
    bearerError(401, 'unauthenticated', 'An Authorization header with a Bearer token is required.', [
      { location: 'header.authorization', message: 'is required' },
    ]),
  tokenMalformed: (why: string) =>
    bearerError(401, 'token_malformed', `The bearer token is not a well-formed JWT: ${why}.`, [
      { location: 'header.authorization', message: why },
    ]),
  tokenInvalid: (why: string) => bearerError(401, 'token_invalid', `The bearer token was refused: ${why}.`),
  tokenExpired: () => bearerError(401, 'token_expired', 'The bearer token has expired.'),
  unknownSigningKey: () =>
    bearerError(401, 'unknown_signing_key', 'No verify key is registered for the token issuer, customer and key id.'),
  audienceMismatch: (expected: string) =>
    bearerError(401, 'token_audience_mismatch', `The bearer token is not meant for this service (audience must be "${expected}").`),
  accountUnknown: () => bearerError(401, 'account_unknown', 'The token subject is not a registered account.'),
  accountDeactivated: () => bearerError(403, 'account_deactivated', 'The account is deactivated.'),
  accountBanned: () => bearerError(403, 'account_banned', 'The account is banned.'),
  tokenLifetimeExceeded: (seconds: number, max: number, measured: 'exp - iat' | 'exp - now') =>
    bearerError(
      401,
      'token_lifetime_exceeded',
      `The bearer token was refused: its lifetime (${measured} = ${seconds} s) exceeds the maximum of ${max} s; issue tokens that expire sooner.`,
      [{ location: 'header.authorization', message: `lifetime exceeds the maximum of ${max} s` }],
    ),
};
