// The mentions inbox: the caller's mentions in rooms it is still a member of, newest first, each with the message as
// the caller sees it, its room and a read flag. A mention is read once marked here or once the caller's read mark of
// the room reaches its message (so reading the room reads its mentions, without a write per mention).
import { inTransaction } from '../../platform/db/sql.js';
import { cursorInstant, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { asMessageRow, messageView, type MessageView } from '../base/message-views.js';
import { accountsAudience, emit } from '../events/emit.js';
import { isMember, roomNotFound } from '../base/membership.js';
import type { Page } from '../base/paging.js';
import type { RoomType } from '../base/room-views.js';
import { attachThreadInfo, rootsWithReplies } from '../threads/thread-info.js';
import { markMentionRead, markMentionsRead, mentionInboxRows } from './inbox-queries.js';

export interface MentionView {
  message: MessageView;
  room: { id: string; type: RoomType; name: string | null };
  read: boolean;
  mentionedAt: string;
}

const inboxList = (accountId: string) => `mentions:${accountId}`;

function parseInboxCursor(raw: string, list: string): { at: string; id: string } {
  const c = decodeCursor(raw, list);
  const at = c ? cursorInstant(c.a) : null;
  const id = c ? cursorUuid(c.i) : null;
  if (!at || !id) throw chatErrors.invalidCursor('query.cursor');
  return { at, id };
}

export class MentionInboxService {
  constructor(private readonly deps: ChatDeps) {}

  /** Keyset (created_at, message_id) descending over the index mentions_inbox; hidden messages are left out. */
  async list(caller: Caller, query: { unreadOnly?: boolean; limit?: number; cursor?: string }): Promise<Page<MentionView>> {
    const limit = query.limit ?? 50;
    const unreadOnly = query.unreadOnly === true;
    const list = `${inboxList(caller.accountId)}:${unreadOnly}`;
    const after = query.cursor === undefined ? null : parseInboxCursor(query.cursor, list);
    const found = await mentionInboxRows(this.deps.sql, caller.accountId, { unreadOnly, limit: limit + 1, after });
    const listed = found.map((row) => ({ ...asMessageRow(row), room_type: row.room_type as RoomType }));
    const hasMore = listed.length > limit;
    const page = listed.slice(0, limit);
    const items = page.map((row) => ({
      message: messageView(row),
      room: { id: row.room_id, type: row.room_type, name: row.room_name },
      read: row.read,
      mentionedAt: row.mentioned_at.toISOString(),
    }));
    await attachThreadInfo(
      this.deps.sql,
      caller.accountId,
      items.map((i) => i.message),
      rootsWithReplies(page),
    );
    const last = page[page.length - 1];
    return { items, hasMore, nextCursor: hasMore && last ? encodeCursor({ a: last.mentioned_at.toISOString(), i: last.id }, list) : null };
  }

  /** Marks one mention read; a repeat finds it read and answers the same. */
  async markRead(caller: Caller, messageId: string): Promise<{ messageId: string; read: true }> {
    await inTransaction(this.deps.sql, async (client) => {
      const row = await markMentionRead(client, caller.accountId, messageId, this.deps.clock.now());
      if (!row) throw chatErrors.notFound('Mention', 'mention_not_found');
      if (row.marked)
        await emit(
          client,
          'mention.read',
          { accountId: caller.accountId, roomId: row.room_id, messageIds: [messageId] },
          accountsAudience([caller.accountId]),
        );
    });
    return { messageId, read: true };
  }

  /** Marks every unread mention of the caller read, or those of one room. */
  async markAllRead(caller: Caller, roomId: string | undefined): Promise<{ marked: number }> {
    if (roomId !== undefined && !(await isMember(this.deps.sql, roomId, caller.accountId))) throw roomNotFound();
    const marked = await inTransaction(this.deps.sql, async (client) => {
      const ids = await markMentionsRead(client, caller.accountId, roomId, this.deps.clock.now());
      if (ids.length > 0)
        await emit(
          client,
          'mention.read',
          { accountId: caller.accountId, roomId: roomId ?? null, messageIds: ids },
          accountsAudience([caller.accountId]),
        );
      return ids.length;
    });
    return { marked };
  }
}
