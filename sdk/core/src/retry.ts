// When and how long to wait before repeating a call: Retry-After on 429, exponential backoff with jitter otherwise.

/** Waits ms milliseconds; rejects with the signal's reason when it aborts. Injectable so tests need not wait. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryOptions {
  /** Retries after the first attempt (default 3; 0 turns retrying off). */
  maxRetries?: number;
  /**
   * The longest single wait (default 60 000 ms). Backoff waits are capped at it; a 429 whose Retry-After is longer
   * is thrown at once, since a retry before then would be refused again.
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

/** First backoff wait for 5xx and network errors; doubled per attempt, with jitter. */
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

export function wholeNumber(name: string, value: number): number {
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

/** Exponential backoff with jitter (half to all of the step), never above the cap. */
export function backoffMs(attempt: number, policy: RetryPolicy): number {
  const step = Math.min(policy.maxRetryDelayMs, baseBackoffMs * 2 ** (attempt - 1));
  return Math.round(step * (0.5 + Math.random() / 2));
}

/**
 * How long to wait before repeating a call that got this status, or undefined when it must not be repeated.
 * A 429 is refused before the operation runs, so any call may go again; a 5xx only when repeating is harmless.
 */
export function retryDelayMs(
  error: { status: number; retryAfter: number | undefined },
  attempt: number,
  repeatable: boolean,
  policy: RetryPolicy,
): number | undefined {
  const retryable = error.status === 429 || (error.status >= 500 && repeatable);
  if (!retryable) return undefined;
  if (error.retryAfter === undefined) return backoffMs(attempt, policy);
  const ms = error.retryAfter * 1000;
  return ms > policy.maxRetryDelayMs ? undefined : ms;
}
