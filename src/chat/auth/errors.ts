// Chat errors of authentication and request limits (catalogue: docs/errors.md).
import { AppError } from '../../platform/http/app-error.js';

export const authErrors = {
  tokenLifetimeExceeded: (seconds: number, max: number, measured: 'exp - iat' | 'exp - now') =>
    new AppError(
      401,
      'token_lifetime_exceeded',
      `The bearer token was refused: its lifetime (${measured} = ${seconds} s) exceeds the maximum of ${max} s; issue tokens that expire sooner.`,
      [{ location: 'header.authorization', message: `lifetime exceeds the maximum of ${max} s` }],
    ),
  rateLimited: (what: string, limit: number, retryAfter: number) =>
    new AppError(
      429,
      'rate_limited',
      `More than ${limit} ${what} per minute from this account; retry in ${retryAfter} s.`,
      [{ location: 'header.authorization', message: `this account is over ${limit} ${what} per minute; retry in ${retryAfter} s` }],
      { 'retry-after': String(retryAfter) },
    ),
};
