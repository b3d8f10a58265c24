// The openapi-fetch client underneath every SDK client: common options, credentials as middleware, the retry policy.
import createClient, { type Client, type ClientOptions, type HeadersOptions, type Middleware } from 'openapi-fetch';
import { retryPolicy, type RetryOptions, type RetryPolicy } from './retry.js';
import type { LooseRequest } from './transport.js';

export interface CommonClientOptions extends RetryOptions {
  /** Where the listener is, e.g. http://127.0.0.1:8081 (no /api/v1: paths carry it). */
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

/** A fixed token or a provider, as the clients that take a bearer token accept them. */
export type TokenOptions = { token: string; getToken?: undefined } | { getToken: TokenProvider; token?: undefined };

export function tokenProvider(options: TokenOptions, clientName: string): TokenProvider {
  if (typeof options.getToken === 'function') return options.getToken;
  if (typeof options.token === 'string') {
    const token = options.token;
    return () => token;
  }
  throw new TypeError(`${clientName} needs a token or a getToken function`);
}

/**
 * openapi-fetch middleware setting `Authorization: Bearer <credential>`, unless the request already carries one or
 * `skip` says the operation takes no credential (health checks).
 */
export function bearerAuth(getToken: TokenProvider, skip?: (method: string, schemaPath: string) => boolean): Middleware {
  return {
    async onRequest({ request, schemaPath }) {
      if (skip?.(request.method, schemaPath)) return undefined;
      if (request.headers.has('authorization')) return undefined;
      const token = await getToken();
      if (token) request.headers.set('authorization', `Bearer ${token}`);
      return request;
    },
  };
}

export interface Underlying<Paths extends object> {
  raw: Client<Paths>;
  request: LooseRequest;
  policy: RetryPolicy;
}

export function underlying<Paths extends object>(options: CommonClientOptions, auth: Middleware | undefined): Underlying<Paths> {
  const { baseUrl, fetch, headers, middleware = [] } = options;
  if (typeof baseUrl !== 'string' || baseUrl === '') throw new TypeError('baseUrl is required, e.g. http://127.0.0.1:8080');
  const policy = retryPolicy(options);
  const raw = createClient<Paths>({ baseUrl, ...(fetch ? { fetch } : {}), ...(headers ? { headers } : {}) });
  raw.use(...(auth ? [auth] : []), ...middleware);
  return { raw, request: raw.request as unknown as LooseRequest, policy };
}
