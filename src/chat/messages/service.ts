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
import { asMessageRow, hiddenForMe, messageColumnNames, messageView, type MessageRow, type MessageView } from '../base/message-views.js';
import { sql, type InferResult } from 'kysely';
import { firstRow, hotRows } from '../../platform/db/typed.js';
import { chatDb } from '../base/tables.js';
import { fixedStatement, slot } from '../../platform/db/fixed-statement.js';
import { mentionSendStatement, plainMentionSendStatement, plainSendStatement, sendStatement, type SendInput } from './send-sql.js';
import { mentionCandidates } from '../mentions/parse.js';
import { sendWithAttachments } from './with-attachments.js';
import { withMentionsOf } from '../mentions/record.js';

export type { SendInput };

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

/** The values of a scroll page, bound in this order. */
interface ScrollValues extends Record<string, unknown> {
  room: string;
  limit: number;
  caller: string;
  bound?: number;
}

const scrollStatements = new Map<string, ReturnType<typeof buildScroll>>();

/** The page statement of one scroll shape (direction, view, bound or none), built once. */
function scrollStatement(forward: boolean, topLevelOnly: boolean, bounded: boolean) {
  const key = `${forward}:${topLevelOnly}:${bounded}`;
  let statement = scrollStatements.get(key);
  if (!statement) scrollStatements.set(key, (statement = buildScroll(forward, topLevelOnly, bounded)));
  return statement;
}

function buildScroll(forward: boolean, topLevelOnly: boolean, bounded: boolean) {
  const room = slot<string>('room');
  const caller = slot<string>('caller');
  const bound = slot<number>('bound');
  const order = forward ? 'asc' : 'desc';
  const query = chatDb
    .selectFrom(
      chatDb
        .selectNoFrom((eb) =>
          eb
            .exists(eb.selectFrom('room_members').select(sql.lit(1).as('one')).where('room_id', '=', room).where('account_id', '=', caller))
            .as('member'),
        )
        .as('k'),
    )
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom((eb) =>
            eb
              .selectFrom('messages')
              .select([...messageColumnNames, 'reply_count', hiddenForMe(caller)])
              .where(sql<boolean>`k.member`)
              .where('room_id', '=', room)
              .$if(topLevelOnly, (q) => q.where('thread_root_id', 'is', null))
              .$if(bounded, (q) => q.where('seq', forward ? '>' : '<', bound))
              .orderBy('seq', order)
              .limit(sql.lit(MAX_PAGE + 1))
              .as('q'),
          )
          .selectAll('q')
          .orderBy('q.seq', order)
          .limit(slot<number>('limit'))
          .as('p'),
      (join) => join.onTrue(),
    )
    .select('k.member')
    .selectAll('p');
  return fixedStatement<InferResult<typeof query>[number], ScrollValues>(query, [
    'room',
    'limit',
    'caller',
    ...(bounded ? (['bound'] as const) : []),
  ]);
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
    const list = historyList(roomId, query.topLevelOnly);
    const bound =
      query.before !== undefined
        ? parseSeqCursor(query.before, 'query.before', list)
        : forward
          ? parseSeqCursor(query.after!, 'query.after', list)
          : null;
    const db = await readPool(this.deps);
    const rows = await hotRows(
      db,
      scrollStatement(forward, query.topLevelOnly === true, bound !== null).bind({
        room: roomId,
        limit: limit + 1,
        caller: caller.accountId,
        bound: bound ?? undefined,
      }),
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
    const withMentions = candidates.length > 0;
    const statement =
      input.clientMessageId === undefined
        ? withMentions
          ? plainMentionSendStatement
          : plainSendStatement
        : withMentions
          ? mentionSendStatement
          : sendStatement;
    const sent = await hotRows(
      this.deps.sql,
      statement.bind({
        id: newId(),
        room: roomId,
        sender: caller.accountId,
        text: input.text,
        time: this.deps.clock.now(),
        clientMessageId: input.clientMessageId,
        candidates: withMentions ? JSON.stringify(candidates) : undefined,
      }),
    );
    const row = sent[0];
    // No row: not a member, or a retry of a send that already stored its message. A row without a message:
    // a concurrent retry won the insert.
    if (!row || row.id === null) {
      if (input.clientMessageId === undefined) throw roomNotFound();
      await this.requireMember(caller, roomId);
      const existing = await firstRow(
        this.deps.sql,
        chatDb
          .selectFrom('messages')
          .select(messageColumnNames)
          .where('room_id', '=', roomId)
          .where('sender_id', '=', caller.accountId)
          .where('client_message_id', '=', input.clientMessageId),
      );
      if (!existing) throw new Error('send stored no message and found no earlier one');
      return messageView(asMessageRow(existing));
    }
    return messageView(row as unknown as MessageRow);
  }

  async get(caller: Caller, roomId: string, messageId: string): Promise<MessageView> {
    await this.requireMember(caller, roomId);
    const found = await firstRow(
      this.deps.sql,
      chatDb
        .selectFrom('messages')
        .select([...messageColumnNames, 'reply_count', hiddenForMe(caller.accountId)])
        .where('room_id', '=', roomId)
        .where('id', '=', messageId),
    );
    if (!found) throw chatErrors.notFound('Message', 'message_not_found');
    const row = asMessageRow(found);
    return withThread(this.deps.sql, caller.accountId, row, messageView(row));
  }
}
