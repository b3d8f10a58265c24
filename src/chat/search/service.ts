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
import { asMessageRow, messageView, type MessageView } from '../base/message-views.js';
import { isMember, roomNotFound } from '../base/membership.js';
import type { Page } from '../base/paging.js';
import { attachThreadInfo, rootsWithReplies } from '../threads/thread-info.js';
import { searchMessages } from './queries.js';
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

    const since = query.after === undefined ? null : searchTimeBound('query.after', query.after);
    const until = query.before === undefined ? null : searchTimeBound('query.before', query.before);
    const found = await searchMessages(db, {
      accountId: caller.accountId,
      q,
      roomId: query.roomId,
      from: query.from,
      since,
      until,
      relevance: order === 'relevance',
      after,
      limit: limit + 1,
    });
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
