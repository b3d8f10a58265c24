// Per-account send allowance: every node counts in the same Redis window (src/platform/rate-limit.ts), so a client
// spreading its sends over nodes gets no more than one allowance.
import type { Clock } from '../../platform/clock.js';
import { FixedWindowCounter } from '../../platform/rate-limit.js';
import type { Redis } from '../../platform/redis.js';
import { callerOf, type ChatContext } from '../context.js';
import { authErrors } from './errors.js';

export class SendLimit {
  private readonly counter: FixedWindowCounter;

  constructor(redis: Redis, perMinute: number, clock: Clock) {
    this.counter = new FixedWindowCounter(redis, 'chat:send', [{ name: 'm', seconds: 60, limit: perMinute }], clock);
  }

  /** Counts one send of the account; throws 429 rate_limited when it is over its allowance. */
  async check(accountId: string): Promise<void> {
    const { refusal } = await this.counter.hit(accountId);
    if (refusal) throw authErrors.rateLimited('messages', refusal.limit, refusal.retryAfter);
  }
}

/** The handler, counting each call against its caller's allowance first (refused sends count too). */
export function sendLimited<I, R>(handler: (input: I, ctx: ChatContext) => Promise<R>, limit: SendLimit): (input: I, ctx: ChatContext) => Promise<R> {
  return async (input, ctx) => {
    await limit.check(callerOf(ctx).accountId);
    return handler(input, ctx);
  };
}
