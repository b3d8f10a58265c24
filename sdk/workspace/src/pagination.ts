// Cursor pagination over list operations ({ items, next_cursor }): repeat the call with next_cursor until it is null.
import type { AdminOperationId, KeyOperationId, OperationId } from './operations.js';
import type { OperationQuery, SuccessBody } from './types.js';

/** Operations whose success body is a page { items, next_cursor } and whose query takes a cursor. */
export type PaginatedOperationId = {
  [K in OperationId]: [SuccessBody<K>] extends [never]
    ? never
    : SuccessBody<K> extends { items: readonly unknown[]; next_cursor: unknown }
      ? 'cursor' extends keyof OperationQuery<K>
        ? K
        : never
      : never;
}[OperationId];

export type KeyPaginatedOperationId = PaginatedOperationId & KeyOperationId;
export type AdminPaginatedOperationId = PaginatedOperationId & AdminOperationId;

/** One element of a list operation's items, e.g. Schemas['Crm.Lead'] for listLeads. */
export type ItemOf<K extends OperationId> = SuccessBody<K> extends { items: readonly (infer I)[] } ? I : never;

export type PageOf<K extends PaginatedOperationId> = SuccessBody<K>;

export interface PageEnvelope {
  items: readonly unknown[];
  next_cursor?: string | null;
}

/** Yields each page from `cursor` (undefined: the first), following next_cursor; a repeated cursor throws. */
export async function* pages<P extends PageEnvelope>(
  operation: string,
  fetchPage: (cursor: string | undefined) => Promise<P>,
  cursor: string | undefined,
): AsyncGenerator<P, void, undefined> {
  const seen = new Set<string>();
  for (;;) {
    const page = await fetchPage(cursor);
    yield page;
    if (!page.next_cursor) return;
    if (seen.has(page.next_cursor)) throw new Error(`${operation}: the server returned the cursor ${page.next_cursor} twice`);
    seen.add(page.next_cursor);
    cursor = page.next_cursor;
  }
}

export async function* items<I>(pageIterator: AsyncIterable<PageEnvelope>): AsyncGenerator<I, void, undefined> {
  for await (const page of pageIterator) yield* page.items as readonly I[];
}
