// Assertions for the partner interface: every error is { error: { code, message, details }, request_id } with
// request_id also in X-Request-Id, and every response carries the rate-limit headers.
import type { CallResult } from './expect.js';

export function expectPartnerError(res: CallResult, status: number, code: string, details?: Record<string, unknown>): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(Object.keys(res.body).sort()).toEqual(['error', 'request_id']);
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.message.length).toBeGreaterThan(0);
  expect(typeof res.body.error.details).toBe('object');
  expect(typeof res.body.request_id).toBe('string');
  expect(res.headers.get('x-request-id')).toBe(res.body.request_id);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expectRateHeaders(res);
  if (details) expect(res.body.error.details).toMatchObject(details);
}

export function expectRateHeaders(res: CallResult): void {
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    expect(res.headers.get(name)).toMatch(/^\d+$/);
  }
}

/** Headers of a request made with an API key, plus an Idempotency-Key for writes. */
export function keyHeaders(key: string, idempotencyKey?: string): Record<string, string> {
  return { 'x-api-key': key, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) };
}
