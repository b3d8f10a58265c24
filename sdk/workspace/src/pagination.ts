// Cursor pagination over list operations ({ items, next_cursor }): repeat the call with next_cursor until it is null.
import { items as coreItems, pages as corePages } from '@chat-platform/sdk-core';
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

/** Where a page keeps its records and its next cursor (null on the last page). */
const pageShape = {
  nextCursor: (page: PageEnvelope) => page.next_cursor,
  records: (page: PageEnvelope) => page.items,
};

/** Yields each page from `cursor` (undefined: the first), following next_cursor; a repeated cursor throws. */
export function pages<P extends PageEnvelope>(
  operation: string,
  fetchPage: (cursor: string | undefined) => Promise<P>,
  cursor: string | undefined,
): AsyncGenerator<P, void, undefined> {
  return corePages<P>(operation, fetchPage, cursor, pageShape);
}

export function items<I>(pageIterator: AsyncIterable<PageEnvelope>): AsyncGenerator<I, void, undefined> {
  return coreItems<PageEnvelope, I>(pageIterator, pageShape);
}
