import { readPool } from '../../platform/db/read-router.js';
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import type { Page } from '../base/paging.js';
import { isMember, roomNotFound } from '../base/membership.js';
import { sendReply } from '../threads/reply.js';
import { attachThreadInfo, rootsWithReplies, withThread } from '../threads/thread-info.js';
import { asMessageRow, messageView, type MessageRow, type MessageView } from '../base/message-views.js';
import { messageOfClientId, sendMessage, type SendInput } from './send-queries.js';
import { historyPage } from './history-queries.js';
import { messageOf } from './queries.js';
import { mentionCandidates } from '../mentions/parse.js';
import { sendWithAttachments } from './with-attachments.js';
import { withMentionsOf } from '../mentions/record.js';

export type { SendInput };

export interface ScrollQuery {
  before?: string;
  after?: string;
  limit?: number;
  topLevelOnly?: boolean;
}

/** A room's history (whole, or top-level only): a cursor from another room or the other view is refused. */
export const historyList = (roomId: string, topLevelOnly: boolean | undefined) => `messages:${roomId}:${topLevelOnly === true}`;

function parseSeqCursor(raw: string, location: string, list: string): number {
  const c = decodeCursor(raw, list);
  if (!c || typeof c.s !== 'number' || !Number.isSafeInteger(c.s) || c.s < 0) throw chatErrors.invalidCursor(location);
  return c.s;
}

export class MessageService {
  constructor(private readonly deps: ChatDeps) {}

  private async requireMember(caller: Caller, roomId: string): Promise<void> {
    if (!(await isMember(this.deps.sql, roomId, caller.accountId))) throw roomNotFound();
  }

  /**
   * Keyset scroll on (room_id, seq): every page is one index range scan, whatever the room size, in the same
   * statement as the membership check (one round trip; the scan does not run for a non-member).
   * hasMore and nextCursor are computed on the raw rows, before the caller's hidden messages are left out
   * (the seed's rule): a page whose rows are all hidden is empty yet still carries hasMore and a cursor.
   */
  async scroll(caller: Caller, roomId: string, query: ScrollQuery): Promise<Page<MessageView>> {
    if (query.before !== undefined && query.after !== undefined) {
      throw chatErrors.invalid('query.after', 'cannot be combined with query.before');
    }
    const limit = query.limit ?? 50;
    const forward = query.after !== undefined;
    const list = historyList(roomId, query.topLevelOnly);
    const bound =
      query.before !== undefined
        ? parseSeqCursor(query.before, 'query.before', list)
        : forward
          ? parseSeqCursor(query.after!, 'query.after', list)
          : null;
    const db = await readPool(this.deps);
    const rows = await historyPage(
      db,
      { forward, topLevelOnly: query.topLevelOnly === true },
      { room: roomId, limit: limit + 1, caller: caller.accountId, bound: bound ?? undefined },
    );
    if (!rows[0]?.member) throw roomNotFound();
    const found = rows.filter((row) => row.id !== null).map((row) => row as unknown as MessageRow); // a left-joined page row: its columns are there when id is
    // The join hands the page over in the scan's order; sorting keeps that a fact rather than an assumption.
    found.sort(forward ? (a, b) => a.seq - b.seq : (a, b) => b.seq - a.seq);
    const hasMore = found.length > limit;
    const page = found.slice(0, limit);
    const last = page[page.length - 1];
    const chronological = forward ? page : page.reverse();
    const items = chronological.filter((row) => !row.hidden_for_me).map(messageView);
    // Roots with replies carry their thread facts, in both views (one batched query, none without such roots).
    await attachThreadInfo(db, caller.accountId, items, rootsWithReplies(page));
    return {
      items,
      hasMore,
      nextCursor: hasMore && last ? encodeCursor({ s: last.seq }, list) : null,
    };
  }

  async send(caller: Caller, roomId: string, input: SendInput): Promise<MessageView> {
    if (input.attachments !== undefined)
      return sendWithAttachments(this.deps, caller, roomId, { ...input, attachments: input.attachments });
    if (input.threadRootId !== undefined)
      return sendReply(this.deps, caller, roomId, { ...input, threadRootId: input.threadRootId }, withMentionsOf(input.text));
    // A text without '@' takes the statement without any mention step; one with candidates resolves them in the same statement.
    const candidates = mentionCandidates(input.text);
    const row = await sendMessage(this.deps.sql, {
      id: newId(),
      room: roomId,
      sender: caller.accountId,
      text: input.text,
      time: this.deps.clock.now(),
      clientMessageId: input.clientMessageId,
      candidates: candidates.length > 0 ? JSON.stringify(candidates) : undefined,
    });
    // No row: not a member, or a retry of a send that already stored its message. A row without a message:
    // a concurrent retry won the insert.
    if (!row || row.id === null) {
      if (input.clientMessageId === undefined) throw roomNotFound();
      await this.requireMember(caller, roomId);
      const existing = await messageOfClientId(this.deps.sql, roomId, caller.accountId, input.clientMessageId);
      if (!existing) throw new Error('send stored no message and found no earlier one');
      return messageView(asMessageRow(existing));
    }
    return messageView(row as unknown as MessageRow);
  }

  async get(caller: Caller, roomId: string, messageId: string): Promise<MessageView> {
    await this.requireMember(caller, roomId);
    const found = await messageOf(this.deps.sql, roomId, messageId, caller.accountId);
    if (!found) throw chatErrors.notFound('Message', 'message_not_found');
    const row = asMessageRow(found);
    return withThread(this.deps.sql, caller.accountId, row, messageView(row));
  }
}
