// One poller per bot, as Telegram has it: every getUpdates registers itself in Redis as the bot's current poll (so
// all nodes see it). One that starts while an earlier one is still running takes over: the earlier poll is woken
// and ends with 409 "Conflict: terminated by other getUpdates request", the answer libraries read as "another
// instance of this bot is running", instead of both instances answering every update.
import { newId } from '../../../platform/ids.js';
import type { Redis } from '../../../platform/redis.js';
import type { UpdateWaiters } from './waiters.js';

const key = (botId: string) => `bot:poller:${botId}`;

// Removes the registration only while it is still this poll's, so a poll ending late never unregisters its successor.
const endScript = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

export interface Poll {
  /** Whether no later getUpdates of the bot has started since this one. */
  current(): Promise<boolean>;
  end(): Promise<void>;
}

export class BotPollers {
  constructor(
    private readonly redis: Redis,
    private readonly waiters: UpdateWaiters,
  ) {}

  /** Registers a getUpdates that may run for up to lifetimeMs; an earlier one still running is woken to end. */
  async begin(botId: string, lifetimeMs: number): Promise<Poll> {
    const id = newId();
    // The registration outlives the poll a little, and expires by itself if its node goes away.
    const previous = await this.redis.call('set', key(botId), id, 'PX', String(lifetimeMs + 10_000), 'GET');
    if (previous !== null) await this.waiters.notify([botId]);
    return {
      current: async () => (await this.redis.get(key(botId))) === id,
      end: async () => {
        await this.redis.eval(endScript, 1, key(botId), id);
      },
    };
  }
}
