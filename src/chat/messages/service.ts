import { readPool } from '../../platform/db/read-router.js';
import { decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { newId } from '../../platform/ids.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { chatErrors } from '../errors.js';
import type { Page } from '../rooms/service.js';
import { isMember, roomNotFound } from '../rooms/membership.js';
import { sendReply } from '../threads/reply.js';
import { attachThreadInfo, replyCountColumn, rootsWithReplies, withThread } from '../threads/thread-info.js';
import { hiddenForMeColumn, messageColumns, messageView, type MessageRow, type MessageView } from './views.js';
import { mentionSendSql, plainMentionSendSql, plainSendSql, sendSql, type SendInput } from './send-sql.js';
import { mentionCandidates } from '../mentions/parse.js';
import { sendWithAttachments, withMentionsOf } from './with-attachments.js';

export type { SendInput };
import { prepared } from '../../platform/db/prepared.js';

/** The largest page the API serves (limit 1 to 100). */
const MAX_PAGE = 100;

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
   * The scan's own limit is a constant and the page's limit is applied above it: the statement is prepared, and with
   * a parameter as its only limit the planner prices the generic plan as reading a tenth of the room, finds a custom
   * plan cheaper and plans the statement afresh on every call.
   */
  async scroll(caller: Caller, roomId: string, query: ScrollQuery): Promise<Page<MessageView>> {
    if (query.before !== undefined && query.after !== undefined) {
      throw chatErrors.invalid('query.after', 'cannot be combined with query.before');
    }
    const limit = query.limit ?? 50;
    const forward = query.after !== undefined;
    const order = forward ? 'asc' : 'desc';
    const list = historyList(roomId, query.topLevelOnly);
    const bound =
      query.before !== undefined
        ? parseSeqCursor(query.before, 'query.before', list)
        : forward
          ? parseSeqCursor(query.after!, 'query.after', list)
          : null;
    const params: unknown[] = [roomId, limit + 1, caller.accountId];
    let where = 'room_id = $1';
    if (query.topLevelOnly) where += ' and thread_root_id is null';
    if (bound !== null) {
      params.push(bound);
      where += forward ? ' and seq > $4' : ' and seq < $4';
    }
    const db = await readPool(this.deps);
    const { rows } = await db.query<{ member: boolean } & (({ id: string } & MessageRow) | { id: null })>(
      prepared(
        `select k.member, p.* from (select exists (select 1 from room_members where room_id = $1 and account_id = $3) as member) k
         left join lateral (
           select * from (
             select ${messageColumns}, ${replyCountColumn()}, ${hiddenForMeColumn('$3')} from messages
              where k.member and ${where} order by seq ${order} limit ${MAX_PAGE + 1}
           ) q order by seq ${order} limit $2
         ) p on true`,
        params,
      ),
    );
    if (!rows[0]?.member) throw roomNotFound();
    const found = rows.filter((row): row is { member: boolean } & MessageRow => row.id !== null);
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
    const params: unknown[] = [newId(), roomId, caller.accountId, input.text, this.deps.clock.now()];
    // A text without '@' takes the statement without any mention step; one with candidates resolves them in the same statement.
    const candidates = mentionCandidates(input.text);
    const withMentions = candidates.length > 0;
    if (input.clientMessageId !== undefined) params.push(input.clientMessageId);
    if (withMentions) params.push(JSON.stringify(candidates));
    const statement =
      input.clientMessageId === undefined ? (withMentions ? plainMentionSendSql : plainSendSql) : withMentions ? mentionSendSql : sendSql;
    const { rows } = await this.deps.sql.query<MessageRow & { bumped: number }>(prepared(statement, params));
    const row = rows[0];
    // No row: not a member, or a retry of a send that already stored its message. A row without a message:
    // a concurrent retry won the insert.
    if (!row || row.id === null) {
      if (input.clientMessageId === undefined) throw roomNotFound();
      await this.requireMember(caller, roomId);
      const existing = await this.deps.sql.query<MessageRow>(
        `select ${messageColumns} from messages where room_id = $1 and sender_id = $2 and client_message_id = $3`,
        [roomId, caller.accountId, input.clientMessageId],
      );
      if (!existing.rows[0]) throw new Error('send stored no message and found no earlier one');
      return messageView(existing.rows[0]);
    }
    this.deps.queues.requestOutboxDrain();
    return messageView(row);
  }

  async get(caller: Caller, roomId: string, messageId: string): Promise<MessageView> {
    await this.requireMember(caller, roomId);
    const { rows } = await this.deps.sql.query<MessageRow>(
      `select ${messageColumns}, ${replyCountColumn()}, ${hiddenForMeColumn('$3')} from messages where room_id = $1 and id = $2`,
      [roomId, messageId, caller.accountId],
    );
    if (!rows[0]) throw chatErrors.notFound('Message', 'message_not_found');
    return withThread(this.deps.sql, caller.accountId, rows[0], messageView(rows[0]));
  }
}
