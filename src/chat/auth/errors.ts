// Chat errors of authentication and request limits (catalogue: docs/errors.md).
import { chatError } from '../base/errors.js';

export const authErrors = {
  rateLimited: (what: string, limit: number, retryAfter: number) =>
    chatError(
      429,
      'rate_limited',
      `More than ${limit} ${what} per minute from this account; retry in ${retryAfter} s.`,
      [{ location: 'header.authorization', message: `this account is over ${limit} ${what} per minute; retry in ${retryAfter} s` }],
      { 'retry-after': String(retryAfter) },
    ),
};
