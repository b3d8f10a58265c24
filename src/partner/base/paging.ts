// Stripe-style lists over a table ordered by id (UUIDv7, so newest first is id descending): the cursor is the last
// id of the page, signed for its list so that it pages nothing else.
import type { Partition } from '../../core/crm/queries.js';
import { boundList, cursorUuid, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import { partnerErrors } from './errors.js';

/** A list of a key's workspace and environment with the filters given: its cursors page nothing else. */
export function listIn(part: Partition, list: string, filters?: object): string {
  return boundList(list, [part.workspaceId, part.environment], filters);
}

/** The page size of a list asked without limit. */
export const defaultLimit = 50;

export interface ListPage<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** The id a page continues after, or undefined for the first page; 400 for a cursor of another list. */
export function afterIdOf(list: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const id = cursorUuid(decodeCursor(raw, list)?.i);
  if (!id) throw partnerErrors.badInput('query.cursor', 'is not a cursor this list returned; pass next_cursor back unchanged');
  return id;
}

/** A page from rows fetched with limit + 1 (the extra row only tells that more follow). */
export function idPage<R extends { id: string }, T>(list: string, rows: R[], limit: number, render: (row: R) => T): ListPage<T> {
  const hasMore = rows.length > limit;
  const page = hasMore ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return {
    object: 'list',
    data: page.map(render),
    has_more: hasMore,
    next_cursor: hasMore && last ? encodeCursor({ i: last.id }, list) : null,
  };
}

/** What a list request asks: its page size (default 50) and the cursor of the page before. */
export interface ListQuery {
  limit?: number;
  cursor?: string;
}

/**
 * One page of a list ordered by id, newest first: `fetch` reads limit + 1 rows after the cursor's id (undefined for
 * the first page), and the page is rendered.
 */
export async function idList<R extends { id: string }, T>(
  list: string,
  query: ListQuery,
  fetch: (afterId: string | undefined, limit: number) => Promise<R[]>,
  render: (row: R) => T,
): Promise<ListPage<T>> {
  const limit = query.limit ?? defaultLimit;
  const after = afterIdOf(list, query.cursor);
  return idPage(list, await fetch(after, limit + 1), limit, render);
}
