// Cursor pagination over list operations, generic over every operation whose meta carries nextCursor.
import type { OperationId } from './operations.js';
import type { operations } from './schema.js';
import { items as coreItems, pages as corePages, type LooseInput, type PageShape } from '@chat-platform/sdk-core';
import type { CallOptions, ChatResult, ChatSuccess, OperationArgs, OperationInput, SuccessBody } from './types.js';

/** Operations whose success body carries a list meta with nextCursor. */
export type ListOperationId = {
  [K in OperationId]: [SuccessBody<K>] extends [never] ? never : SuccessBody<K> extends { meta: { nextCursor: unknown } } ? K : never;
}[OperationId];

type Query<K extends OperationId> = NonNullable<operations[K]['parameters']['query']>;

/** Query parameters of K that can carry a cursor (string-valued). */
export type CursorParamOf<K extends OperationId> = [Query<K>] extends [never]
  ? never
  : { [Q in keyof Query<K>]-?: string extends NonNullable<Query<K>[Q]> ? Q : never }[keyof Query<K>];

/**
 * The query parameters that take meta.nextCursor back, per list operation; the first one is the default
 * direction, and a page request that already sets another one (listMessages with `after`) keeps that direction.
 * An empty list means the operation answers in one page. Like the route table, the mapped `satisfies` makes a new
 * list operation in the spec a type error until it is listed here.
 */
export const cursorParams = {
  listRooms: ['cursor'],
  listRoomMembers: ['cursor'],
  listJoinRequests: ['cursor'],
  listMessages: ['before', 'after'],
  listThreads: ['cursor'],
  listThreadMessages: ['before', 'after'],
  listModules: [],
  listCustomerKeys: [],
  listReactions: [],
  listPinnedMessages: [],
  forwardMessages: [],
  listChannels: ['cursor'],
  listChannelMembers: ['cursor'],
  listContactRequests: ['cursor'],
  listMyBroadcasts: ['cursor'],
  listLabels: [],
  listSavedMessages: ['cursor'],
  listMentions: ['cursor'],
  searchMessages: ['cursor'],
  listReminders: ['cursor'],
  listScheduledMessages: ['cursor'],
  listBots: ['cursor'],
  listWebhooks: ['cursor'],
  listPresence: [],
  listMessageReceipts: [],
} as const satisfies { readonly [K in ListOperationId]: readonly CursorParamOf<K>[] };

/** List operations that can be followed page by page. */
export type PaginatedOperationId = {
  [K in ListOperationId]: (typeof cursorParams)[K] extends readonly [] ? never : K;
}[ListOperationId];

/** One element of an operation's data array. */
export type ItemOf<K extends OperationId> = SuccessBody<K> extends { data: readonly (infer I)[] } ? I : never;

type Caller = <K extends OperationId>(operation: K, ...args: OperationArgs<K>) => Promise<ChatResult<K>>;

/** The list meta of every paginated operation: the next cursor counts only while hasMore is true. */
const chatShape = {
  nextCursor: (page: ChatSuccess<PaginatedOperationId>) => (page.meta.hasMore ? page.meta.nextCursor : undefined),
  records: (page: ChatSuccess<PaginatedOperationId>) => page.data,
};

/**
 * Yields each page's result, following meta.nextCursor (through the operation's first cursor parameter, or the one
 * the first request sets) until hasMore is false. A failed page throws ChatApiError.
 */
export function pages<K extends PaginatedOperationId>(
  call: Caller,
  operation: K,
  input: OperationInput<K> | undefined,
  options: CallOptions | undefined,
): AsyncGenerator<ChatResult<K>, void, undefined> {
  const base = (input ?? {}) as LooseInput;
  const names: readonly string[] = cursorParams[operation];
  const param = names.find((n) => base.query?.[n] !== undefined) ?? names[0]!;
  const loose = call as (op: K, i: LooseInput, o?: CallOptions) => Promise<ChatResult<K>>;
  const fetchPage = (cursor: string | undefined) => loose(operation, { ...base, query: { ...base.query, [param]: cursor } }, options);
  return corePages<ChatResult<K>>(operation, fetchPage, base.query?.[param] as string | undefined, chatShape as PageShape<ChatResult<K>>);
}

/** Yields the items of every page in turn; a failed page throws ChatApiError. */
export function items<K extends PaginatedOperationId>(
  call: Caller,
  operation: K,
  input: OperationInput<K> | undefined,
  options: CallOptions | undefined,
): AsyncGenerator<ItemOf<K>, void, undefined> {
  return coreItems<ChatResult<K>, ItemOf<K>>(pages(call, operation, input, options), chatShape as PageShape<ChatResult<K>>);
}
