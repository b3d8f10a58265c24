// What both clients share: their common options and the openapi-fetch client underneath.
import createClient, { type Client, type ClientOptions, type HeadersOptions, type Middleware } from 'openapi-fetch';
import type { paths } from './schema.js';
import { retryPolicy, type LooseRequest, type RetryOptions, type RetryPolicy } from './transport.js';

export interface CommonClientOptions extends RetryOptions {
  /** Where the partner listener is, e.g. http://127.0.0.1:8081 (no /api/v1: paths carry it). */
  baseUrl: string;
  /** A fetch to use instead of globalThis.fetch (it receives a Request). Called once per attempt. */
  fetch?: ClientOptions['fetch'];
  /** Headers sent with every request. */
  headers?: HeadersOptions;
  /** More openapi-fetch middleware, run after the authentication one. */
  middleware?: Middleware[];
}

export interface Underlying {
  raw: Client<paths>;
  /** The untyped view of raw.request: the methods' signatures are derived from the schema and the route tables are
   * checked against it, so the call itself only forwards. */
  request: LooseRequest;
  policy: RetryPolicy;
}

export function underlying(options: CommonClientOptions, auth: Middleware): Underlying {
  const { baseUrl, fetch, headers, middleware = [] } = options;
  if (typeof baseUrl !== 'string' || baseUrl === '') throw new TypeError('baseUrl is required, e.g. http://127.0.0.1:8081');
  const policy = retryPolicy(options);
  const raw = createClient<paths>({ baseUrl, ...(fetch ? { fetch } : {}), ...(headers ? { headers } : {}) });
  raw.use(auth, ...middleware);
  return { raw, request: raw.request as unknown as LooseRequest, policy };
}
