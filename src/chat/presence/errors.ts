import { chatError, chatErrors } from '../base/errors.js';
import { presenceMaxIds } from './limits.js';

export const presenceErrors = {
  typingTooOften: (intervalMs: number, retryAfterMs: number) => {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
    return chatError(
      429,
      'rate_limited',
      `One typing notice per room every ${intervalMs} ms; retry in ${seconds} s.`,
      [{ location: 'path.roomId', message: `a typing notice for this room was sent less than ${intervalMs} ms ago` }],
      { 'retry-after': String(seconds) },
    );
  },
  tooManyIds: (n: number) => chatErrors.invalid('query.accountIds', `lists ${n} ids; at most ${presenceMaxIds} per request`),
  notAnId: (value: string) => chatErrors.invalid('query.accountIds', `"${value.slice(0, 40)}" is not an account id (UUID)`),
};
