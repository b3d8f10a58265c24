// One logical call: the request through openapi-fetch, repeated on 429 (after Retry-After) and, when repeating is
// harmless, on 5xx and network errors with exponential backoff. The same Idempotency-Key goes out on every attempt.
import { mergeHeaders, type HeadersOptions } from 'openapi-fetch';
import type { ErrorReader } from './errors.js';
import { backoffMs, retryDelayMs, wholeNumber, type RetryPolicy } from './retry.js';

export interface Route {
  readonly method: string;
  readonly path: string;
}

/** The untyped view of openapi-fetch's request: the SDKs type their methods from the schema and only forward here. */
export type LooseRequest = (
  method: string,
  path: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

export interface LooseInput {
  path?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export interface SendOptions {
  signal?: AbortSignal | undefined;
  headers?: HeadersOptions | undefined;
  maxRetries?: number | undefined;
  /** Sent as the Idempotency-Key header, the same on every attempt; a call that carries one may be repeated. */
  idempotencyKey?: string | undefined;
  /** The operation is harmless to repeat though it is a write without an Idempotency-Key (a PUT, a PATCH that sets). */
  repeatable?: boolean | undefined;
  /** How a 2xx body is read: JSON (the default), or an ArrayBuffer for an operation that answers a file's bytes. */
  parseAs?: 'json' | 'arrayBuffer' | undefined;
}

/** A body of raw bytes (an upload), sent as it is instead of as JSON. */
function isBytes(body: unknown): body is Uint8Array | ArrayBuffer | Blob {
  return body instanceof Uint8Array || body instanceof ArrayBuffer || (typeof Blob !== 'undefined' && body instanceof Blob);
}

/** The 2xx body with the Response it came in, and how many attempts it took (1 when the first one answered). */
export interface ResultWithResponse<D> {
  data: D;
  response: Response;
  attempts: number;
  /** The Idempotency-Key the call was sent with, when it had one. */
  idempotencyKey?: string;
}

/** Reads: repeating them changes nothing. */
const safeMethods: ReadonlySet<string> = new Set(['get', 'head', 'options']);

/** Whether a 5xx or a network error may be followed by another attempt. */
export function isRepeatable(route: Route, options: Pick<SendOptions, 'idempotencyKey' | 'repeatable'>): boolean {
  return safeMethods.has(route.method) || options.idempotencyKey !== undefined || options.repeatable === true;
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted) return true;
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'AbortError' || name === 'TimeoutError';
}

/** Performs one logical call; resolves to the 2xx body, throws the reader's ApiError or the transport's error. */
export async function send(
  request: LooseRequest,
  policy: RetryPolicy,
  readError: ErrorReader,
  route: Route,
  input: LooseInput | undefined,
  options: SendOptions = {},
): Promise<ResultWithResponse<unknown>> {
  const maxRetries = options.maxRetries === undefined ? policy.maxRetries : wholeNumber('maxRetries', options.maxRetries);
  const repeatable = isRepeatable(route, options);
  const init: Record<string, unknown> = { params: { path: input?.path, query: input?.query } };
  const bytes = input !== undefined && 'body' in input && isBytes(input.body);
  if (input && 'body' in input) init.body = input.body;
  if (bytes) init.bodySerializer = (body: unknown) => body;
  if (options.parseAs) init.parseAs = options.parseAs;
  if (options.signal) init.signal = options.signal;
  const extra = options.idempotencyKey === undefined ? undefined : { 'Idempotency-Key': options.idempotencyKey };
  const type = bytes ? { 'Content-Type': 'application/octet-stream' } : undefined;
  if (options.headers || extra || type) init.headers = mergeHeaders(type, options.headers, extra);

  for (let attempt = 1; ; attempt++) {
    let outcome: Awaited<ReturnType<LooseRequest>>;
    try {
      outcome = await request(route.method, route.path, init);
    } catch (error) {
      // The request may or may not have reached the server: only a repeatable call can safely go again.
      if (!repeatable || attempt > maxRetries || isAbort(error, options.signal)) throw error;
      await policy.sleep(backoffMs(attempt, policy), options.signal);
      continue;
    }
    const { data, error, response } = outcome;
    if (response.ok) {
      const result: ResultWithResponse<unknown> = { data, response, attempts: attempt };
      if (options.idempotencyKey !== undefined) result.idempotencyKey = options.idempotencyKey;
      return result;
    }
    const apiError = readError(error, response);
    const wait = attempt > maxRetries ? undefined : retryDelayMs(apiError, attempt, repeatable, policy);
    if (wait === undefined) throw apiError;
    await policy.sleep(wait, options.signal);
  }
}
