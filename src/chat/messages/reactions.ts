// Reactions: one row per (message, emoji, account); the summary is counted from the rows on every read.
import { inTransaction } from '../../platform/db/sql.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { roleIn } from '../base/membership.js';
import { loadMessage, messageErrors } from './access.js';
import { emit, roomAudience } from '../events/emit.js';
import { addReaction, reactionSummary, removeReaction } from './reaction-queries.js';

export interface ReactionSummaryView {
  emoji: string;
  count: number;
  reactedByMe: boolean;
}

export interface ReactionView {
  roomId: string;
  messageId: string;
  emoji: string;
  state: 'REACTED' | 'NOT_REACTED';
}

/**
 * The schema refuses empty, over-long, whitespace and control characters; a lone surrogate passes a regular
 * expression but cannot be stored as UTF-8, so it is refused here instead of being turned into U+FFFD.
 */
function checkEmoji(emoji: string, location: string): void {
  // With the u flag a paired surrogate is one code point outside this range: only lone halves match.
  if (/[\uD800-\uDFFF]/u.test(emoji)) throw chatErrors.invalid(location, 'is not well-formed Unicode');
}

export class ReactionService {
  constructor(private readonly deps: ChatDeps) {}

  /** Per emoji, in the order each emoji was first used on the message. */
  async list(caller: Caller, roomId: string, messageId: string): Promise<ReactionSummaryView[]> {
    await roleIn(this.deps.sql, roomId, caller.accountId);
    await loadMessage(this.deps.sql, roomId, messageId, caller.accountId);
    const summary = await reactionSummary(this.deps.sql, messageId, caller.accountId);
    return summary.map((r) => ({ emoji: r.emoji, count: r.count, reactedByMe: r.reacted_by_me }));
  }

  /** Adding a reaction the caller already has changes nothing. A recalled message takes no reactions. */
  async add(caller: Caller, roomId: string, messageId: string, emoji: string): Promise<ReactionView> {
    checkEmoji(emoji, 'body.emoji');
    await inTransaction(this.deps.sql, async (client) => {
      await roleIn(client, roomId, caller.accountId);
      // key share: a concurrent recall (for update) waits for this reaction, then removes it
      const message = await loadMessage(client, roomId, messageId, caller.accountId, 'key share');
      if (message.recalled_at !== null) throw messageErrors.recalled();
      if (!(await addReaction(client, { messageId, emoji, accountId: caller.accountId, at: this.deps.clock.now() }))) return;
      await emit(client, 'reaction.added', { roomId, messageId, emoji, accountId: caller.accountId }, roomAudience(roomId));
    });
    return { roomId, messageId, emoji, state: 'REACTED' };
  }

  /** Removes the caller's own reaction; one that is not there changes nothing. */
  async remove(caller: Caller, roomId: string, messageId: string, emoji: string): Promise<ReactionView> {
    checkEmoji(emoji, 'path.emoji');
    await inTransaction(this.deps.sql, async (client) => {
      await roleIn(client, roomId, caller.accountId);
      await loadMessage(client, roomId, messageId, caller.accountId);
      if (!(await removeReaction(client, messageId, emoji, caller.accountId))) return;
      await emit(client, 'reaction.removed', { roomId, messageId, emoji, accountId: caller.accountId }, roomAudience(roomId));
    });
    return { roomId, messageId, emoji, state: 'NOT_REACTED' };
  }
}
