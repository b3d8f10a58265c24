// Writes a bot may make per second (sends, forwards, copies, polls, edits, deletions, pins, chat settings; an album
// counts each of its messages), counted in Redis across every node (src/platform/rate-limit.ts); over it, 429 with
// parameters.retry_after.
import type { Clock } from '../../../platform/clock.js';
import { FixedWindowCounter } from '../../../platform/rate-limit.js';
import type { Redis } from '../../../platform/redis.js';
import { botApiErrors } from './errors.js';

export class BotSendLimit {
  private readonly counter: FixedWindowCounter;

  constructor(redis: Redis, perSecond: number, clock: Clock) {
    this.counter = new FixedWindowCounter(redis, 'bot:send', [{ name: 's', seconds: 1, limit: perSecond }], clock);
  }

  /**
   * Counts the write, or the `messages` writes of one request (an album) all at once; a refused one is not counted, so
   * a bot that waits retry_after gets through.
   */
  async check(botId: string, messages = 1): Promise<void> {
    const { refusal } = await this.counter.hit(botId, { mode: 'admitted', units: messages });
    if (refusal) throw botApiErrors.tooManyRequests(Math.max(1, refusal.retryAfter));
  }
}
