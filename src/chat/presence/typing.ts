// Typing notices: a member tells the room's other members it is typing. Nothing is written to PostgreSQL; the
// membership is read, the rate is counted in Redis (shared by every node) and the notice goes out over pub/sub.
import type { SqlPool } from '../../platform/db/sql.js';
import type { Redis } from '../../platform/redis.js';
import { roomNotFound } from '../base/membership.js';
import { presenceErrors } from './errors.js';
import { publishEphemeral } from './ephemeral.js';
import { typingTtlMs } from './limits.js';
import { roomMemberIds } from './queries.js';

export interface TypingNotice {
  roomId: string;
  accountId: string;
  expiresAt: string;
  ttlMs: number;
}

export class TypingService {
  constructor(
    private readonly sql: SqlPool,
    private readonly redis: Redis,
    /** REALTIME_TYPING_INTERVAL_MS: one notice per account and room in this window. */
    private readonly intervalMs: number,
  ) {}

  /** Sends the notice; room_not_found for a non-member, rate_limited within intervalMs of the last one. */
  async notify(accountId: string, roomId: string): Promise<TypingNotice> {
    const members = await roomMemberIds(this.sql, roomId);
    const others = members.filter((id) => id !== accountId);
    if (others.length === members.length) throw roomNotFound();
    // The first notice of the window sets the key; a refused one leaves its expiry alone.
    const key = `typing:limit:${roomId}:${accountId}`;
    const set = await this.redis.set(key, '1', 'PX', this.intervalMs, 'NX');
    if (set === null) throw presenceErrors.typingTooOften(this.intervalMs, Math.max(0, await this.redis.pttl(key)));
    // Real time, as Redis counts the window: clients compare expiresAt with their own clocks.
    const now = Date.now();
    const notice: TypingNotice = { roomId, accountId, expiresAt: new Date(now + typingTtlMs).toISOString(), ttlMs: typingTtlMs };
    await publishEphemeral(this.redis, { topic: 'typing', createdAt: new Date(now).toISOString(), payload: { ...notice }, to: others });
    return notice;
  }
}
