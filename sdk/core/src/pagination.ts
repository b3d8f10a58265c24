// Cursor pagination: repeat a list call with the cursor its last page gave until there is none. Each SDK says where
// its envelope keeps the cursor and the records.

/** Where a page's next cursor and records are. */
export interface PageShape<P> {
  /** The cursor of the next page, or undefined/null/'' when this was the last page. */
  nextCursor(page: P): string | null | undefined;
  records(page: P): readonly unknown[];
}

/**
 * Yields each page, starting at `cursor` (undefined: the first page), following the next cursor. A failed page
 * throws (the fetchPage error). A cursor returned twice would loop forever, so it throws.
 */
export async function* pages<P>(
  operation: string,
  fetchPage: (cursor: string | undefined) => Promise<P>,
  cursor: string | undefined,
  shape: Pick<PageShape<P>, 'nextCursor'>,
): AsyncGenerator<P, void, undefined> {
  const seen = new Set<string>();
  for (;;) {
    const page = await fetchPage(cursor);
    yield page;
    const next = shape.nextCursor(page);
    if (!next) return;
    if (seen.has(next)) throw new Error(`${operation}: the server returned the cursor ${next} twice`);
    seen.add(next);
    cursor = next;
  }
}

/** Yields the records of every page in turn, in server order. */
export async function* items<P, I>(
  pageIterator: AsyncIterable<P>,
  shape: Pick<PageShape<P>, 'records'>,
): AsyncGenerator<I, void, undefined> {
  for await (const page of pageIterator) yield* shape.records(page) as readonly I[];
}
