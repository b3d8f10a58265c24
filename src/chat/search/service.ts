// Message search over the caller's rooms: PostgreSQL full-text search with the language-neutral `simple`
// configuration over the expression index messages_search (GIN over to_tsvector('simple', text), recalled messages
// left out). The room_members join is the access rule: only rooms the caller is a member of (a deleted room has no
// members). Messages the caller hid are left out. Cursors are signed for the caller, the query, its filters and the
// order, so a cursor of one search cannot page another.
import { readPool } from '../../platform/db/read-router.js';
import { createHash } from 'node:crypto';
import { cursorInstant, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { chatErrors } from '../errors.js';
import { hiddenForMeColumn, messageColumnsOf, messageView, type MessageRow, type MessageView } from '../messages/views.js';
import { isMember, roomNotFound } from '../rooms/membership.js';
import type { Page } from '../rooms/service.js';
import { attachThreadInfo, replyCountColumn, rootsWithReplies } from '../threads/thread-info.js';
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

interface HitRow extends MessageRow {
  rank: number;
}

interface Keyset {
  at: string;
  id: string;
  rank: number | null;
}

/** The same expression as the index messages_search, so the planner can use it. */
const document = "to_tsvector('simple'::regconfig, x.text)";

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

    const params: unknown[] = [caller.accountId, q, limit + 1];
    const filters: string[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    if (query.roomId !== undefined) filters.push(`x.room_id = ${param(query.roomId)}`);
    if (query.from !== undefined) filters.push(`x.sender_id = ${param(query.from)}`);
    if (query.after !== undefined) filters.push(`x.created_at >= ${param(searchTimeBound('query.after', query.after))}::timestamptz`);
    if (query.before !== undefined) filters.push(`x.created_at < ${param(searchTimeBound('query.before', query.before))}::timestamptz`);
    const keyset =
      after === null
        ? ''
        : order === 'relevance'
          ? `where (r.rank, r.created_at, r.id) < (${param(after.rank)}::float8, ${param(after.at)}::timestamptz, ${param(after.id)}::uuid)`
          : `where (r.created_at, r.id) < (${param(after.at)}::timestamptz, ${param(after.id)}::uuid)`;
    // The rank reads each match's words again: computed only when it orders the page.
    const sort = order === 'relevance' ? 'r.rank desc, r.created_at desc, r.id desc' : 'r.created_at desc, r.id desc';
    const { rows } = await db.query<HitRow>(
      `select r.* from (
         select ${messageColumnsOf('x')}, ${replyCountColumn('x')}, ${hiddenForMeColumn('$1', 'x')}, ${order === 'relevance' ? `ts_rank(${document}, t.query, 1)::float8` : '0::float8'} as rank
           from plainto_tsquery('simple'::regconfig, $2) t(query)
           join messages x on ${document} @@ t.query and x.text is not null and x.recalled_at is null
           join room_members m on m.room_id = x.room_id and m.account_id = $1
          where not exists (select 1 from message_hides h where h.account_id = $1 and h.message_id = x.id)
            ${filters.map((f) => `and ${f}`).join(' ')}
       ) r ${keyset}
       order by ${sort} limit $3`,
      params,
    );
    const hasMore = rows.length > limit;
    const page = rows.slice(0, limit);
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
