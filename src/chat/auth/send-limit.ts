// Per-account send allowance, spent by every request that creates messages (sends, forwards, polls, scheduled
// messages when scheduled, inline-button presses): every node counts in the same Redis window, so a client spreading
// its sends over nodes gets no more than one allowance. A fast sender's node takes its allowance in small leases
// (src/platform/leased-counter.ts), so its sends do not each wait on Redis.
import type { Clock } from '../../platform/clock.js';
import { LeasedWindowCounter } from '../../platform/leased-counter.js';
import type { Redis } from '../../platform/redis.js';
import { callerOf, type ChatContext } from '../base/context.js';
import { authErrors } from './errors.js';

export class SendLimit {
  private readonly counter: LeasedWindowCounter;

  constructor(
    redis: Redis,
    private readonly perMinute: number,
    clock: Clock,
  ) {
    this.counter = new LeasedWindowCounter(redis, 'chat:send:m', { seconds: 60, limit: perMinute }, clock);
  }

  /** Counts the messages one request of the account creates; throws 429 rate_limited when they are over its allowance. */
  async check(accountId: string, messages = 1): Promise<void> {
    const outcome = await this.counter.hitMany(accountId, messages);
    if (!outcome.admitted) throw authErrors.rateLimited('messages', this.perMinute, outcome.retryAfter);
  }
}

/**
 * The handler, counting the messages each call creates (one unless `messages` says) against its caller's allowance
 * first (refused sends count too).
 */
export function sendLimited<I, R>(
  handler: (input: I, ctx: ChatContext) => Promise<R>,
  limit: SendLimit,
  messages: (input: I) => number = () => 1,
): (input: I, ctx: ChatContext) => Promise<R> {
  return async (input, ctx) => {
    await limit.check(callerOf(ctx).accountId, messages(input));
    return handler(input, ctx);
  };
}
