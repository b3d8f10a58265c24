// Message search over the caller's rooms: PostgreSQL full-text search with the language-neutral `simple`
// configuration over the expression index messages_search (GIN over to_tsvector('simple', text), recalled messages
// left out). The room_members join is the access rule: only rooms the caller is a member of (a deleted room has no
// members). Messages the caller hid are left out. Cursors are signed for the caller, the query, its filters and the
// order, so a cursor of one search cannot page another.
import { readPool } from '../../platform/db/read-router.js';
import { createHash } from 'node:crypto';
import { cursorInstant, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { asMessageRow, hiddenBy, hiddenForMe, messageColumnsIn, messageView, type MessageView } from '../base/message-views.js';
import { sql } from 'kysely';
import { rows } from '../../platform/db/typed.js';
import { chatDb } from '../base/tables.js';
import { isMember, roomNotFound } from '../base/membership.js';
import type { Page } from '../base/paging.js';
import { attachThreadInfo, rootsWithReplies } from '../threads/thread-info.js';
import { searchTimeBound } from './time-bound.js';
import { highlightsOf, queryWords, type Highlight } from './words.js';

export type SearchOrder = 'newest' | 'relevance';

export interface SearchQuery {
  q: string;
  roomId?: string;
  from?: string;
  after?: string;
  before?: string;
  order?: SearchOrder;
  limit?: number;
  cursor?: string;
}

export interface SearchHit {
  message: MessageView;
  highlights: Highlight[];
}

interface Keyset {
  at: string;
  id: string;
  rank: number | null;
}

/** The same expression as the index messages_search, so the planner can use it. */
const document = sql`to_tsvector('simple'::regconfig, x.text)`;

export class SearchService {
  constructor(private readonly deps: ChatDeps) {}

  async messages(caller: Caller, query: SearchQuery): Promise<Page<SearchHit>> {
    const q = query.q.trim();
    const words = queryWords(q);
    const order = query.order ?? 'newest';
    const limit = query.limit ?? 20;
    const db = await readPool(this.deps);
    if (query.roomId !== undefined && !(await isMember(db, query.roomId, caller.accountId))) throw roomNotFound();
    const list = searchList(caller.accountId, q, query, order);
    const after = query.cursor === undefined ? null : parseSearchCursor(query.cursor, list, order);

    const from = query.after === undefined ? null : searchTimeBound('query.after', query.after);
    const until = query.before === undefined ? null : searchTimeBound('query.before', query.before);
    const matches = chatDb
      .selectFrom(sql<{ query: unknown }>`plainto_tsquery('simple'::regconfig, ${q})`.as<'t'>(sql`t(query)`))
      .innerJoin('messages as x', (join) =>
        join
          .on(sql<boolean>`${document} @@ t.query`)
          .on('x.text', 'is not', null)
          .on('x.recalled_at', 'is', null),
      )
      .innerJoin('room_members as m', (join) => join.onRef('m.room_id', '=', 'x.room_id').on('m.account_id', '=', caller.accountId))
      .select([
        ...messageColumnsIn('x'),
        'x.reply_count',
        hiddenForMe(caller.accountId, 'x'),
        // The rank reads each match's words again: computed only when it orders the page.
        (order === 'relevance' ? sql<number>`ts_rank(${document}, t.query, 1)::float8` : sql<number>`0::float8`).as('rank'),
      ])
      .where((eb) => eb.not(eb.exists(hiddenBy(caller.accountId, eb.ref('x.id')))))
      .$if(query.roomId !== undefined, (w) => w.where('x.room_id', '=', query.roomId!))
      .$if(query.from !== undefined, (w) => w.where('x.sender_id', '=', query.from!))
      .$if(from !== null, (w) => w.where('x.created_at', '>=', sql<Date>`${from}::timestamptz`))
      .$if(until !== null, (w) => w.where('x.created_at', '<', sql<Date>`${until}::timestamptz`));
    const found = await rows(
      db,
      chatDb
        .selectFrom(matches.as('r'))
        .selectAll('r')
        .$if(after !== null && order === 'relevance', (w) =>
          w.where(sql<boolean>`(r.rank, r.created_at, r.id) < (${after!.rank}::float8, ${after!.at}::timestamptz, ${after!.id}::uuid)`),
        )
        .$if(after !== null && order !== 'relevance', (w) =>
          w.where(sql<boolean>`(r.created_at, r.id) < (${after!.at}::timestamptz, ${after!.id}::uuid)`),
        )
        .$if(order === 'relevance', (o) => o.orderBy('r.rank', 'desc'))
        .orderBy('r.created_at', 'desc')
        .orderBy('r.id', 'desc')
        .limit(limit + 1),
    );
    const hitRows = found.map((row) => ({ ...asMessageRow(row), rank: row.rank }));
    const hasMore = hitRows.length > limit;
    const page = hitRows.slice(0, limit);
    const hits = page.map((row) => ({ message: messageView(row), highlights: highlightsOf(row.text, words) }));
    await attachThreadInfo(
      db,
      caller.accountId,
      hits.map((h) => h.message),
      rootsWithReplies(page),
    );
    const last = page[page.length - 1];
    return {
      items: hits,
      hasMore,
      nextCursor:
        hasMore && last
          ? encodeCursor({ a: last.created_at.toISOString(), i: last.id, ...(order === 'relevance' ? { r: String(last.rank) } : {}) }, list)
          : null,
    };
  }
}

/** The list a cursor belongs to: the caller, the query and every filter and the order. */
function searchList(accountId: string, q: string, query: SearchQuery, order: SearchOrder): string {
  const facts = JSON.stringify([q, query.roomId ?? null, query.from ?? null, query.after ?? null, query.before ?? null, order]);
  return `search:${accountId}:${createHash('sha256').update(facts).digest('base64url')}`;
}

function parseSearchCursor(raw: string, list: string, order: SearchOrder): Keyset {
  const c = decodeCursor(raw, list);
  const at = c ? cursorInstant(c.a) : null;
  const id = c ? cursorUuid(c.i) : null;
  // Cursors hold integers and strings only: the rank travels as its shortest decimal text, which reads back exactly.
  const rank = c && typeof c.r === 'string' && Number.isFinite(Number(c.r)) ? Number(c.r) : null;
  if (!at || !id || (order === 'relevance' && rank === null)) throw chatErrors.invalidCursor('query.cursor');
  return { at, id, rank };
}
