// Walking cursor-paged lists in the tests: the query parameter of a page after the first, the next cursor each
// interface answers with, and a walk that collects every page, so that a test asserts on the pages it got.
import type { CallResult } from './expect.js';

/** `&cursor=<cursor>` for a page after the first (URL-encoded unless `encode` is false), '' for the first page. */
export function cursorParam(cursor: string | null | undefined, encode = true): string {
  if (!cursor) return '';
  return `&cursor=${encode ? encodeURIComponent(cursor) : cursor}`;
}

/** Chat lists: the cursor of the next page, meta.nextCursor (null on the last page). */
export function chatNextCursor(page: CallResult): string | null {
  return page.body.meta.nextCursor ?? null;
}

/** Chat lists walked by meta.hasMore: meta.nextCursor while hasMore is true, null once it is false. */
export function chatCursorWhileMore(page: CallResult): string | null {
  return page.body.meta.hasMore ? page.body.meta.nextCursor : null;
}

/** Workspace lists ({ items, next_cursor }): next_cursor (null on the last page). */
export function svcNextCursor(page: CallResult): string | null {
  return page.body.next_cursor;
}

/** Partner and workspace lists: next_cursor while has_more is true, null once it is false. */
export function nextCursorWhileMore(page: CallResult): string | null {
  return page.body.has_more ? page.body.next_cursor : null;
}

/**
 * Walks a cursor-paged list: fetches the first page (cursor undefined), then the page at each cursor next() names
 * until it names none or maxPages pages are fetched. Returns the pages in the order they were fetched.
 */
export async function walkPages<P>(
  fetchPage: (cursor: string | undefined) => Promise<P>,
  next: (page: P) => string | null | undefined,
  maxPages = 1000,
): Promise<P[]> {
  const pages: P[] = [];
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    pages.push(page);
    cursor = next(page) ?? undefined;
  } while (cursor && pages.length < maxPages);
  return pages;
}

/** `&<name>=<cursor>` (as it is, not encoded) for a page after the first, '' for the first page. */
export function pageParam(name: string, cursor: string | null | undefined): string {
  return cursor ? `&${name}=${cursor}` : '';
}

/**
 * Walks a workspace list ({ items, next_cursor }) of at most maxPages pages; `get` fetches the page after the
 * query suffix it is given ('' first, then `&cursor=…`). Each page must answer 200 with exactly those two fields.
 * Returns the ids of the items in the order they came.
 */
export async function walkSvcListIds(
  get: (cursorQuery: string) => Promise<CallResult>,
  maxPages = 10,
): Promise<{ pages: number; ids: string[] }> {
  const pages = await walkPages(
    async (cursor) => {
      const res = await get(cursorParam(cursor));
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['items', 'next_cursor']);
      return res;
    },
    svcNextCursor,
    maxPages,
  );
  return { pages: pages.length, ids: pages.flatMap((res) => res.body.items.map((item: { id: string }) => item.id)) };
}
