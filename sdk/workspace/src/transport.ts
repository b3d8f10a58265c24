// One logical call: the request through openapi-fetch, retried on 429 (after Retry-After) and, when repeating is
// harmless, on 5xx and network errors with exponential backoff.
import { mergeHeaders, type HeadersOptions } from 'openapi-fetch';
import { toWorkspaceApiError, type WorkspaceApiError } from './errors.js';
import type { Route } from './operations.js';
import type { ResultWithResponse } from './types.js';

/** Waits ms milliseconds; rejects with the signal's reason when it aborts. Injectable so tests need not wait. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryOptions {
  /** Retries after the first attempt (default 3; 0 turns retrying off). */
  maxRetries?: number;
  /**
   * The longest single wait (default 60 000 ms). Backoff waits are capped at it; a 429 whose Retry-After is longer
   * is thrown at once (a free plan's hourly limit can ask for most of an hour).
   */
  maxRetryDelayMs?: number;
  /** How to wait between attempts (default: setTimeout, cut short by the call's signal). */
  sleep?: Sleep;
}

export interface RetryPolicy {
  maxRetries: number;
  maxRetryDelayMs: number;
  sleep: Sleep;
}

const baseBackoffMs = 500;

export const defaultSleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

function wholeNumber(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number >= 0, got ${value}`);
  return value;
}

export function retryPolicy(options: RetryOptions): RetryPolicy {
  return {
    maxRetries: wholeNumber('maxRetries', options.maxRetries ?? 3),
    maxRetryDelayMs: wholeNumber('maxRetryDelayMs', options.maxRetryDelayMs ?? 60_000),
    sleep: options.sleep ?? defaultSleep,
  };
}

function backoffMs(attempt: number, policy: RetryPolicy): number {
  const step = Math.min(policy.maxRetryDelayMs, baseBackoffMs * 2 ** (attempt - 1));
  return Math.round(step * (0.5 + Math.random() / 2));
}

/** How long to wait before retrying after this error response, or undefined when it must not be retried. */
function retryDelayMs(error: WorkspaceApiError, attempt: number, repeatable: boolean, policy: RetryPolicy): number | undefined {
  // A 429 is refused before the operation runs (and counts nothing), so even a create can go again.
  const retryable = error.status === 429 || (error.status >= 500 && repeatable);
  if (!retryable) return undefined;
  if (error.retryAfter === undefined) return backoffMs(attempt, policy);
  const ms = error.retryAfter * 1000;
  return ms > policy.maxRetryDelayMs ? undefined : ms;
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  if (signal?.aborted) return true;
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'AbortError' || name === 'TimeoutError';
}

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
  /** Whether repeating the call is harmless, so that 5xx and network errors may be retried too. */
  repeatable: boolean;
}

/** Performs one logical call; resolves to the 2xx body, throws WorkspaceApiError or the transport's error. */
export async function send(
  request: LooseRequest,
  policy: RetryPolicy,
  route: Route,
  input: LooseInput | undefined,
  options: SendOptions,
): Promise<ResultWithResponse<unknown>> {
  const maxRetries = options.maxRetries === undefined ? policy.maxRetries : wholeNumber('maxRetries', options.maxRetries);
  const init: Record<string, unknown> = { params: { path: input?.path, query: input?.query } };
  if (input && 'body' in input) init.body = input.body;
  if (options.signal) init.signal = options.signal;
  if (options.headers) init.headers = mergeHeaders(options.headers);

  for (let attempt = 1; ; attempt++) {
    let outcome: Awaited<ReturnType<LooseRequest>>;
    try {
      outcome = await request(route.method, route.path, init);
    } catch (error) {
      if (!options.repeatable || attempt > maxRetries || isAbort(error, options.signal)) throw error;
      await policy.sleep(backoffMs(attempt, policy), options.signal);
      continue;
    }
    const { data, error, response } = outcome;
    if (response.ok) return { data, response, attempts: attempt };
    const apiError = toWorkspaceApiError(error, response);
    const wait = attempt > maxRetries ? undefined : retryDelayMs(apiError, attempt, options.repeatable, policy);
    if (wait === undefined) throw apiError;
    await policy.sleep(wait, options.signal);
  }
}
