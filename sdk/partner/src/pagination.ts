// Cursor pagination over list operations (Stripe-style envelopes): repeat the call with next_cursor until has_more
// is false. Generic over every operation whose body is a list envelope and whose query takes a cursor.
import { items as coreItems, pages as corePages } from '@chat-platform/sdk-core';
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

/** Where a Stripe-style list keeps its records and its next cursor (none once has_more is false). */
const listShape = {
  nextCursor: (page: ListEnvelope) => (page.has_more ? page.next_cursor : undefined),
  records: (page: ListEnvelope) => page.data,
};

/** Yields each page from `cursor` (undefined: the first), following next_cursor until has_more is false. */
export function pages<P extends ListEnvelope>(
  operation: string,
  fetchPage: (cursor: string | undefined) => Promise<P>,
  cursor: string | undefined,
): AsyncGenerator<P, void, undefined> {
  return corePages<P>(operation, fetchPage, cursor, listShape);
}

/** Yields the records of every page in turn, in server order. */
export function items<I>(pageIterator: AsyncIterable<ListEnvelope>): AsyncGenerator<I, void, undefined> {
  return coreItems<ListEnvelope, I>(pageIterator, listShape);
}
