// Cursor pagination over list operations (Stripe-style envelopes): repeat the call with next_cursor until has_more
// is false. Generic over every operation whose body is a list envelope and whose query takes a cursor.
import type { AdminOperationId, KeyOperationId, OperationId } from './operations.js';
import type { OperationQuery, SuccessBody } from './types.js';

/** Operations whose success body is a list envelope { object: 'list', data, has_more, next_cursor }. */
export type ListOperationId = {
  [K in OperationId]: [SuccessBody<K>] extends [never]
    ? never
    : SuccessBody<K> extends { object: 'list'; data: readonly unknown[]; has_more: boolean; next_cursor: unknown }
      ? K
      : never;
}[OperationId];

/** List operations that page through a `cursor` query parameter (listCrmResources, listPlans, listRoles answer in one page). */
export type PaginatedOperationId = {
  [K in ListOperationId]: [OperationQuery<K>] extends [never] ? never : 'cursor' extends keyof OperationQuery<K> ? K : never;
}[ListOperationId];

export type KeyPaginatedOperationId = PaginatedOperationId & KeyOperationId;
export type AdminPaginatedOperationId = PaginatedOperationId & AdminOperationId;

/** One element of a list operation's data array, e.g. Schemas['Crm.Lead'] for listLeads. */
export type ItemOf<K extends OperationId> = SuccessBody<K> extends { data: readonly (infer I)[] } ? I : never;

/** One page of a list operation: the envelope itself. */
export type PageOf<K extends ListOperationId> = SuccessBody<K>;

export interface ListEnvelope {
  data: readonly unknown[];
  has_more: boolean;
  next_cursor?: string | null;
}

/**
 * Yields each page, starting at `cursor` (undefined: the first page), following next_cursor until has_more is
 * false. A failed page throws (the fetchPage error). A cursor returned twice would loop forever, so it throws.
 */
export async function* pages<P extends ListEnvelope>(
  operation: string,
  fetchPage: (cursor: string | undefined) => Promise<P>,
  cursor: string | undefined,
): AsyncGenerator<P, void, undefined> {
  const seen = new Set<string>();
  for (;;) {
    const page = await fetchPage(cursor);
    yield page;
    if (!page.has_more || !page.next_cursor) return;
    if (seen.has(page.next_cursor)) throw new Error(`${operation}: the server returned the cursor ${page.next_cursor} twice`);
    seen.add(page.next_cursor);
    cursor = page.next_cursor;
  }
}

/** Yields the records of every page in turn, in server order. */
export async function* items<I>(pageIterator: AsyncIterable<ListEnvelope>): AsyncGenerator<I, void, undefined> {
  for await (const page of pageIterator) yield* page.data as readonly I[];
}
