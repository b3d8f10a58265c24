// The mentions inbox: the caller's mentions in rooms it is still a member of, newest first, each with the message as
// the caller sees it, its room and a read flag. A mention is read once marked here or once the caller's read mark of
// the room reaches its message (so reading the room reads its mentions, without a write per mention).
import { inTransaction } from '../../platform/db/sql.js';
import { cursorInstant, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { chatErrors } from '../errors.js';
import { hiddenForMeColumn, messageColumnsOf, messageView, type MessageRow, type MessageView } from '../messages/views.js';
import { accountsAudience, emit } from '../events/emit.js';
import { isMember, roomNotFound } from '../rooms/membership.js';
import type { Page } from '../rooms/service.js';
import type { RoomType } from '../rooms/views.js';
import { attachThreadInfo, replyCountColumn, rootsWithReplies } from '../threads/thread-info.js';

export interface MentionView {
  message: MessageView;
  room: { id: string; type: RoomType; name: string | null };
  read: boolean;
  mentionedAt: string;
}

interface MentionRow extends MessageRow {
  room_type: RoomType;
  room_name: string | null;
  read: boolean;
  mentioned_at: Date;
}

/** A mention row of the caller is unread while neither marked nor passed by the room's read mark (`m`: room_members). */
const unread = 'mn.read_at is null and mn.seq > m.last_read_seq';

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
    const params: unknown[] = [caller.accountId, limit + 1];
    let after = '';
    if (query.cursor !== undefined) {
      const c = parseInboxCursor(query.cursor, list);
      params.push(c.at, c.id);
      after = ' and (mn.created_at, mn.message_id) < ($3::timestamptz, $4::uuid)';
    }
    const { rows } = await this.deps.sql.query<MentionRow>(
      `select ${messageColumnsOf('x')}, ${replyCountColumn('x')}, ${hiddenForMeColumn('$1', 'x')},
              r.type as room_type, r.name as room_name, not (${unread}) as read, mn.created_at as mentioned_at
         from mentions mn
         join room_members m on m.room_id = mn.room_id and m.account_id = mn.account_id
         join rooms r on r.id = mn.room_id and r.deleted_at is null
         join messages x on x.id = mn.message_id
        where mn.account_id = $1${after}${unreadOnly ? ` and ${unread}` : ''}
          and not exists (select 1 from message_hides h where h.account_id = $1 and h.message_id = mn.message_id)
        order by mn.created_at desc, mn.message_id desc limit $2`,
      params,
    );
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
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
    const changed = await inTransaction(this.deps.sql, async (client) => {
      const { rows } = await client.query<{ room_id: string; marked: boolean }>(
        `with target as (
           select mn.account_id, mn.message_id, mn.room_id, mn.read_at from mentions mn
             join room_members m on m.room_id = mn.room_id and m.account_id = mn.account_id
            where mn.account_id = $1 and mn.message_id = $2
         ), marked as (
           update mentions mn set read_at = $3 from target t
            where mn.account_id = t.account_id and mn.message_id = t.message_id and t.read_at is null
           returning mn.message_id
         )
         select t.room_id, exists (select 1 from marked) as marked from target t`,
        [caller.accountId, messageId, this.deps.clock.now()],
      );
      const row = rows[0];
      if (!row) throw chatErrors.notFound('Mention', 'mention_not_found');
      if (row.marked)
        await emit(
          client,
          'mention.read',
          { accountId: caller.accountId, roomId: row.room_id, messageIds: [messageId] },
          accountsAudience([caller.accountId]),
        );
      return row.marked;
    });
    if (changed) this.deps.queues.requestOutboxDrain();
    return { messageId, read: true };
  }

  /** Marks every unread mention of the caller read, or those of one room. */
  async markAllRead(caller: Caller, roomId: string | undefined): Promise<{ marked: number }> {
    if (roomId !== undefined && !(await isMember(this.deps.sql, roomId, caller.accountId))) throw roomNotFound();
    const marked = await inTransaction(this.deps.sql, async (client) => {
      const { rows } = await client.query<{ message_id: string }>(
        `update mentions mn set read_at = $3 from room_members m
          where mn.account_id = $1 and mn.read_at is null and ($2::uuid is null or mn.room_id = $2)
            and m.room_id = mn.room_id and m.account_id = mn.account_id and mn.seq > m.last_read_seq
         returning mn.message_id`,
        [caller.accountId, roomId ?? null, this.deps.clock.now()],
      );
      const ids = rows.map((r) => r.message_id);
      if (ids.length > 0)
        await emit(
          client,
          'mention.read',
          { accountId: caller.accountId, roomId: roomId ?? null, messageIds: ids },
          accountsAudience([caller.accountId]),
        );
      return ids.length;
    });
    if (marked > 0) this.deps.queues.requestOutboxDrain();
    return { marked };
  }
}
