// Cursor pagination over list operations, generic over every operation whose meta carries nextCursor.
import type { OperationId } from './operations.js';
import type { operations } from './schema.js';
import { ChatApiError } from './errors.js';
import type { CallOptions, ChatFailure, ChatResult, ChatSuccess, OperationArgs, OperationInput, SuccessBody } from './types.js';

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
  listReminders: ['cursor'],
  listScheduledMessages: ['cursor'],
  listBots: ['cursor'],
  listWebhooks: ['cursor'],
} as const satisfies { readonly [K in ListOperationId]: readonly CursorParamOf<K>[] };

/** List operations that can be followed page by page. */
export type PaginatedOperationId = {
  [K in ListOperationId]: (typeof cursorParams)[K] extends readonly [] ? never : K;
}[ListOperationId];

/** One element of an operation's data array. */
export type ItemOf<K extends OperationId> = SuccessBody<K> extends { data: readonly (infer I)[] } ? I : never;

type Caller = <K extends OperationId>(operation: K, ...args: OperationArgs<K>) => Promise<ChatResult<K>>;

interface LooseInput {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

/**
 * Yields each page's result, following meta.nextCursor until hasMore is false. A failed page is yielded too (as
 * the typed failure) and ends the iteration.
 */
export async function* pages<K extends PaginatedOperationId>(
  call: Caller,
  operation: K,
  input: OperationInput<K> | undefined,
  options: CallOptions | undefined,
): AsyncGenerator<ChatResult<K>, void, undefined> {
  const base = (input ?? {}) as LooseInput;
  const names: readonly string[] = cursorParams[operation];
  const param = names.find((n) => base.query?.[n] !== undefined) ?? names[0]!;
  let cursor = base.query?.[param] as string | undefined;
  const seen = new Set<string>();
  for (;;) {
    const pageInput = { ...base, query: { ...base.query, [param]: cursor } } as LooseInput;
    const result = await (call as (op: K, i: LooseInput, o?: CallOptions) => Promise<ChatResult<K>>)(operation, pageInput, options);
    yield result;
    if (!result.ok) return;
    const meta = (result as ChatSuccess<PaginatedOperationId>).meta;
    if (!meta.hasMore || !meta.nextCursor) return;
    if (seen.has(meta.nextCursor)) throw new Error(`${operation}: the server returned the cursor ${meta.nextCursor} twice`);
    seen.add(meta.nextCursor);
    cursor = meta.nextCursor;
  }
}

/** Yields the items of every page in turn; a failed page throws a ChatApiError. */
export async function* items<K extends PaginatedOperationId>(
  call: Caller,
  operation: K,
  input: OperationInput<K> | undefined,
  options: CallOptions | undefined,
): AsyncGenerator<ItemOf<K>, void, undefined> {
  for await (const page of pages(call, operation, input, options)) {
    if (!page.ok) {
      const failure = page as ChatFailure;
      throw new ChatApiError(failure.error, failure.response);
    }
    yield* (page as ChatSuccess<PaginatedOperationId>).data as ItemOf<K>[];
  }
}
