// createChatClient: openapi-fetch underneath, a bearer-auth middleware, and one typed method per operation.
import createClient, { type Client, type ClientOptions, type HeadersOptions, type Middleware } from 'openapi-fetch';
import { toChatError } from './errors.js';
import { operationIds, operationRoutes, publicRouteKeys, type OperationId } from './operations.js';
import { items, pages, type ItemOf, type PaginatedOperationId } from './pagination.js';
import type { paths } from './schema.js';
import type { CallOptions, ChatOperations, ChatResult, OperationArgs } from './types.js';

/** Returns the bearer token to send; called once per authenticated request, so it may refresh. '' sends none. */
export type TokenProvider = () => string | Promise<string>;

interface CommonClientOptions {
  /** Where the chat service listens, e.g. http://localhost:8080 (no /api/v1: paths carry it). */
  baseUrl: string;
  /** A fetch to use instead of globalThis.fetch (it receives a Request). */
  fetch?: ClientOptions['fetch'];
  /** Headers sent with every request. */
  headers?: HeadersOptions;
  /** More openapi-fetch middleware, run after the bearer-auth middleware. */
  middleware?: Middleware[];
}

export type ChatClientOptions = CommonClientOptions &
  ({ token: string; getToken?: undefined } | { getToken: TokenProvider; token?: undefined });

export interface ChatClientExtras {
  /** The underlying openapi-fetch client (bearer auth already installed) for anything the methods don't cover. */
  readonly raw: Client<paths>;
  /** Calls any operation by its operationId. */
  call<K extends OperationId>(operation: K, ...args: OperationArgs<K>): Promise<ChatResult<K>>;
  /**
   * Pages of a list operation, following meta.nextCursor (listRooms through `cursor`, listMessages through
   * `before`, or `after` when the first request sets it). A failed page is yielded and ends the iteration.
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
  return {
    async onRequest({ request, schemaPath }) {
      if (publicRouteKeys.has(`${request.method} ${schemaPath}`)) return undefined;
      if (request.headers.has('authorization')) return undefined;
      const token = await getToken();
      // An empty token (signed out) sends no header, so the server answers 401 unauthenticated.
      if (token) request.headers.set('authorization', `Bearer ${token}`);
      return request;
    },
  };
}

interface LooseInput {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

type LooseRequest = (
  method: string,
  path: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

function isEnvelope(body: unknown): body is { data: unknown; meta: unknown } {
  return typeof body === 'object' && body !== null && 'data' in body && 'meta' in body;
}

export function createChatClient(options: ChatClientOptions): ChatClient {
  const { baseUrl, fetch, headers, middleware = [] } = options;
  let getToken: TokenProvider;
  if (typeof options.getToken === 'function') getToken = options.getToken;
  else if (typeof options.token === 'string') {
    const token = options.token;
    getToken = () => token;
  } else throw new TypeError('createChatClient needs a token or a getToken function');

  const raw = createClient<paths>({ baseUrl, ...(fetch ? { fetch } : {}), ...(headers ? { headers } : {}) });
  raw.use(bearerAuth(getToken), ...middleware);

  // The one untyped spot: the method signatures above are derived from the schema, and the route table is
  // checked against it, so the call itself only forwards.
  const request = raw.request as unknown as LooseRequest;

  async function call(operation: OperationId, input?: LooseInput, callOptions?: CallOptions): Promise<ChatResult<OperationId>> {
    const route = operationRoutes[operation];
    const init: Record<string, unknown> = { params: { path: input?.path, query: input?.query } };
    if (input && 'body' in input) init.body = input.body;
    if (callOptions?.signal) init.signal = callOptions.signal;
    if (callOptions?.headers) init.headers = callOptions.headers;
    const { data, error, response } = await request(route.method, route.path, init);
    if (!response.ok) return { ok: false, error: toChatError(error, response), response };
    const result = isEnvelope(data)
      ? { ok: true as const, data: data.data, meta: data.meta, response }
      : { ok: true as const, data, meta: undefined, response };
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
