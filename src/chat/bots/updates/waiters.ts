// Long polls waiting for updates. Whoever commits updates for a bot (the outbox relay on any node, a webhook
// change, a token change) publishes the bot's id on one Redis channel; every node wakes its waiters of that bot,
// which then read the table again. A waiter also looks again every few seconds, so a wake-up lost with a Redis
// hiccup delays an update instead of losing it.
import { InvalidationChannel } from '../../../platform/invalidation.js';
import type { Redis } from '../../../platform/redis.js';

export const wakeChannelName = 'bot:updates:wake';
/** Longest a waiter sleeps without looking at the table. */
const recheckMs = 2_000;

export type WaitEnd = 'woken' | 'timeout' | 'closed';

export interface Waiter {
  /** Resolves when the bot is woken, after ms (capped at the recheck interval), or when the node closes. */
  until(ms: number): Promise<WaitEnd>;
  /** Ends the current (or next) until() with 'closed': the client went away. */
  interrupt(): void;
  cancel(): void;
}

export class UpdateWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly channel: InvalidationChannel;
  private closed = false;

  /** publisher: also the connection the bot's poll registrations use (updates/pollers.ts). */
  constructor(readonly publisher: Redis) {
    this.channel = new InvalidationChannel(publisher, wakeChannelName);
  }

  listen(subscriber: Redis): Promise<() => Promise<void>> {
    return this.channel.listen(subscriber, { drop: (botId) => this.wake(botId), dropAll: () => this.wakeAll() });
  }

  /** Wakes the bot's waiters on every node. */
  async notify(botIds: Iterable<string>): Promise<void> {
    await Promise.all([...new Set(botIds)].map((id) => this.channel.publish(id)));
  }

  /**
   * Registers before the caller reads the table: a wake-up that comes between the read and the wait is not lost,
   * the first until() then returns at once.
   */
  register(botId: string): Waiter {
    let woken = false;
    let interrupted = false;
    let resolve: ((end: WaitEnd) => void) | undefined;
    const onWake = () => {
      woken = true;
      resolve?.('woken');
    };
    let set = this.waiting.get(botId);
    if (!set) this.waiting.set(botId, (set = new Set()));
    set.add(onWake);
    const cancel = () => {
      const current = this.waiting.get(botId);
      current?.delete(onWake);
      if (current?.size === 0) this.waiting.delete(botId);
    };
    return {
      until: (ms) => {
        if (this.closed || interrupted) return Promise.resolve('closed');
        if (woken) {
          woken = false;
          return Promise.resolve('woken');
        }
        return new Promise<WaitEnd>((done) => {
          const timer = setTimeout(() => finish('timeout'), Math.max(0, Math.min(ms, recheckMs)));
          const finish = (end: WaitEnd) => {
            clearTimeout(timer);
            resolve = undefined;
            woken = false;
            done(end);
          };
          resolve = finish;
        });
      },
      interrupt: () => {
        interrupted = true;
        resolve?.('closed');
      },
      cancel,
    };
  }

  private wake(botId: string): void {
    for (const onWake of this.waiting.get(botId) ?? []) onWake();
  }

  private wakeAll(): void {
    for (const set of this.waiting.values()) for (const onWake of set) onWake();
  }

  /** Ends every wait on this node (shutdown): long polls answer what they have instead of holding the close. */
  close(): void {
    this.closed = true;
    this.wakeAll();
  }

  get size(): number {
    let n = 0;
    for (const set of this.waiting.values()) n += set.size;
    return n;
  }
}
