// What both clients share: their common options, bearer authentication and the openapi-fetch client underneath.
import createClient, { type Client, type ClientOptions, type HeadersOptions, type Middleware } from 'openapi-fetch';
import type { paths } from './schema.js';
import { retryPolicy, type LooseRequest, type RetryOptions, type RetryPolicy } from './transport.js';

export interface CommonClientOptions extends RetryOptions {
  /** Where the workspace listener is, e.g. http://127.0.0.1:8082 (no /api/v1: paths carry it). */
  baseUrl: string;
  /** A fetch to use instead of globalThis.fetch (it receives a Request). Called once per attempt. */
  fetch?: ClientOptions['fetch'];
  /** Headers sent with every request. */
  headers?: HeadersOptions;
  /** More openapi-fetch middleware, run after the authentication one. */
  middleware?: Middleware[];
}

/** Returns the bearer credential to send; called once per attempt, so it may refresh. '' sends none. */
export type TokenProvider = () => string | Promise<string>;

/** openapi-fetch middleware setting `Authorization: Bearer <credential>`, unless the request already carries one. */
export function bearerAuth(getToken: TokenProvider): Middleware {
  return {
    async onRequest({ request }) {
      if (request.headers.has('authorization')) return undefined;
      const token = await getToken();
      if (token) request.headers.set('authorization', `Bearer ${token}`);
      return request;
    },
  };
}

export interface Underlying {
  raw: Client<paths>;
  /** The untyped view of raw.request: the methods' signatures come from the schema, the call only forwards. */
  request: LooseRequest;
  policy: RetryPolicy;
}

export function underlying(options: CommonClientOptions, auth: Middleware): Underlying {
  const { baseUrl, fetch, headers, middleware = [] } = options;
  if (typeof baseUrl !== 'string' || baseUrl === '') throw new TypeError('baseUrl is required, e.g. http://127.0.0.1:8082');
  const policy = retryPolicy(options);
  const raw = createClient<paths>({ baseUrl, ...(fetch ? { fetch } : {}), ...(headers ? { headers } : {}) });
  raw.use(auth, ...middleware);
  return { raw, request: raw.request as unknown as LooseRequest, policy };
}
