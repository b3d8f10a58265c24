// The mentions inbox: the caller's mentions in rooms it is still a member of, newest first, each with the message as
// the caller sees it, its room and a read flag. A mention is read once marked here or once the caller's read mark of
// the room reaches its message (so reading the room reads its mentions, without a write per mention).
import { inTransaction } from '../../platform/db/sql.js';
import { cursorInstant, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { asMessageRow, hiddenBy, hiddenForMe, messageColumnsIn, messageView, type MessageView } from '../base/message-views.js';
import { sql } from 'kysely';
import { firstRow, rows } from '../../platform/db/typed.js';
import { chatDb } from '../base/tables.js';
import { accountsAudience, emit } from '../events/emit.js';
import { isMember, roomNotFound } from '../base/membership.js';
import type { Page } from '../base/paging.js';
import type { RoomType } from '../base/room-views.js';
import { attachThreadInfo, rootsWithReplies } from '../threads/thread-info.js';

export interface MentionView {
  message: MessageView;
  room: { id: string; type: RoomType; name: string | null };
  read: boolean;
  mentionedAt: string;
}

/** A mention row of the caller is unread while neither marked nor passed by the room's read mark (`m`: room_members). */
const unread = sql<boolean>`mn.read_at is null and mn.seq > m.last_read_seq`;

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
    const found = await rows(
      this.deps.sql,
      chatDb
        .selectFrom('mentions as mn')
        .innerJoin('room_members as m', (join) => join.onRef('m.room_id', '=', 'mn.room_id').onRef('m.account_id', '=', 'mn.account_id'))
        .innerJoin('rooms as r', (join) => join.onRef('r.id', '=', 'mn.room_id').on('r.deleted_at', 'is', null))
        .innerJoin('messages as x', 'x.id', 'mn.message_id')
        .select([
          ...messageColumnsIn('x'),
          'x.reply_count',
          hiddenForMe(caller.accountId, 'x'),
          'r.type as room_type',
          'r.name as room_name',
          sql<boolean>`not (${unread})`.as('read'),
          'mn.created_at as mentioned_at',
        ])
        .where('mn.account_id', '=', caller.accountId)
        .$if(after !== null, (q) => q.where(sql<boolean>`(mn.created_at, mn.message_id) < (${after!.at}::timestamptz, ${after!.id}::uuid)`))
        .$if(unreadOnly, (q) => q.where(unread))
        .where((eb) => eb.not(eb.exists(hiddenBy(caller.accountId, eb.ref('mn.message_id')))))
        .orderBy('mn.created_at', 'desc')
        .orderBy('mn.message_id', 'desc')
        .limit(limit + 1),
    );
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
      const row = await firstRow(
        client,
        chatDb
          .with('target', (q) =>
            q
              .selectFrom('mentions as mn')
              .innerJoin('room_members as m', (join) =>
                join.onRef('m.room_id', '=', 'mn.room_id').onRef('m.account_id', '=', 'mn.account_id'),
              )
              .select(['mn.account_id', 'mn.message_id', 'mn.room_id', 'mn.read_at'])
              .where('mn.account_id', '=', caller.accountId)
              .where('mn.message_id', '=', messageId),
          )
          .with('marked', (q) =>
            q
              .updateTable('mentions as mn')
              .from('target as t')
              .set({ read_at: this.deps.clock.now() })
              .whereRef('mn.account_id', '=', 't.account_id')
              .whereRef('mn.message_id', '=', 't.message_id')
              .where('t.read_at', 'is', null)
              .returning('mn.message_id'),
          )
          .selectFrom('target as t')
          .select((eb) => ['t.room_id', eb.exists(eb.selectFrom('marked').select(sql.lit(1).as('one'))).as('marked')]),
      );
      if (!row) throw chatErrors.notFound('Mention', 'mention_not_found');
      if (row.marked)
        await emit(
          client,
          'mention.read',
          { accountId: caller.accountId, roomId: row.room_id, messageIds: [messageId] },
          accountsAudience([caller.accountId]),
        );
      return Boolean(row.marked);
    });
    return { messageId, read: true };
  }

  /** Marks every unread mention of the caller read, or those of one room. */
  async markAllRead(caller: Caller, roomId: string | undefined): Promise<{ marked: number }> {
    if (roomId !== undefined && !(await isMember(this.deps.sql, roomId, caller.accountId))) throw roomNotFound();
    const marked = await inTransaction(this.deps.sql, async (client) => {
      const markedRows = await rows(
        client,
        chatDb
          .updateTable('mentions as mn')
          .from('room_members as m')
          .set({ read_at: this.deps.clock.now() })
          .where('mn.account_id', '=', caller.accountId)
          .where('mn.read_at', 'is', null)
          .$if(roomId !== undefined, (q) => q.where('mn.room_id', '=', roomId!))
          .whereRef('m.room_id', '=', 'mn.room_id')
          .whereRef('m.account_id', '=', 'mn.account_id')
          .whereRef('mn.seq', '>', 'm.last_read_seq')
          .returning('mn.message_id'),
      );
      const ids = markedRows.map((r) => r.message_id);
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
