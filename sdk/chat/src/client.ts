// createChatClient: the core's openapi-fetch client underneath, a bearer-auth middleware, one typed method per
// operation, retries, and cursor pagination. Methods resolve to { data, meta, response } or throw ChatApiError.
import {
  bearerAuth as coreBearerAuth,
  send,
  tokenProvider,
  underlying,
  type CommonClientOptions,
  type LooseInput,
  type TokenOptions,
  type TokenProvider,
} from '@chat-platform/sdk-core';
import type { Client, Middleware } from 'openapi-fetch';
import { toChatApiError } from './errors.js';
import { byteResponseOperations, operationIds, operationRoutes, publicRouteKeys, type OperationId } from './operations.js';
import { items, pages, type ItemOf, type PaginatedOperationId } from './pagination.js';
import type { paths } from './schema.js';
import type { CallOptions, ChatOperations, ChatResult, OperationArgs } from './types.js';

export type { TokenProvider } from '@chat-platform/sdk-core';

export type ChatClientOptions = CommonClientOptions & TokenOptions;

export interface ChatClientExtras {
  /** The underlying openapi-fetch client (bearer auth already installed; no retries) for anything the methods don't cover. */
  readonly raw: Client<paths>;
  /** Calls any operation by its operationId. */
  call<K extends OperationId>(operation: K, ...args: OperationArgs<K>): Promise<ChatResult<K>>;
  /**
   * Pages of a list operation, following meta.nextCursor (listRooms through `cursor`, listMessages through
   * `before`, or `after` when the first request sets it). A failed page throws ChatApiError.
   */
  pages<K extends PaginatedOperationId>(operation: K, ...args: OperationArgs<K>): AsyncGenerator<ChatResult<K>, void, undefined>;
  /** The items of every page of a list operation, in server order; a failed page throws ChatApiError. */
  items<K extends PaginatedOperationId>(operation: K, ...args: OperationArgs<K>): AsyncGenerator<ItemOf<K>, void, undefined>;
}

export type ChatClient = ChatOperations & ChatClientExtras;

// An operation named like one of the extras would be shadowed; fail the typecheck instead.
type ExtrasClash = Extract<OperationId, keyof ChatClientExtras>;
const noExtrasClash: [ExtrasClash] extends [never] ? true : ExtrasClash = true;
void noExtrasClash;

/**
 * openapi-fetch middleware setting `Authorization: Bearer <token>`, asking the provider once per request. Public
 * operations (health checks) and requests that already carry an Authorization header are left alone.
 */
export function bearerAuth(getToken: TokenProvider): Middleware {
  return coreBearerAuth(getToken, (method, schemaPath) => publicRouteKeys.has(`${method} ${schemaPath}`));
}

function isEnvelope(body: unknown): body is { data: unknown; meta: unknown } {
  return typeof body === 'object' && body !== null && 'data' in body && 'meta' in body;
}

export function createChatClient(options: ChatClientOptions): ChatClient {
  const getToken = tokenProvider(options, 'createChatClient');
  const { raw, request, policy } = underlying<paths>(options, bearerAuth(getToken));

  async function call(operation: OperationId, input?: LooseInput, callOptions: CallOptions = {}): Promise<ChatResult<OperationId>> {
    const route = Object.hasOwn(operationRoutes, operation) ? operationRoutes[operation] : undefined;
    if (!route) throw new TypeError(`${String(operation)} is not an operation of the chat API`);
    const { data, response } = await send(request, policy, toChatApiError, route, input, {
      signal: callOptions.signal,
      headers: callOptions.headers,
      maxRetries: callOptions.maxRetries,
      idempotencyKey: callOptions.idempotencyKey,
      parseAs: byteResponseOperations.has(operation) ? 'arrayBuffer' : undefined,
    });
    const result = isEnvelope(data) ? { data: data.data, meta: data.meta, response } : { data, meta: undefined, response };
    return result as unknown as ChatResult<OperationId>;
  }
  const typedCall = call as ChatClientExtras['call'];

  const methods = Object.fromEntries(
    operationIds.map((id) => [id, (input?: LooseInput, callOptions?: CallOptions) => call(id, input, callOptions)]),
  ) as unknown as ChatOperations;

  const extras: ChatClientExtras = {
    raw,
    call: typedCall,
    pages: (operation, ...args) => pages(typedCall, operation, args[0], args[1]),
    items: (operation, ...args) => items(typedCall, operation, args[0], args[1]),
  };
  return Object.assign(methods, extras);
}
