// Assertions for the workspace interface (convention B): every error body is exactly { error, message } (plus
// retry_after on 429), every response carries X-Request-ID, and key responses the rate-limit headers.
import type { CallResult } from './expect.js';

export function expectSvcError(res: CallResult, status: number, code: string, messageContains?: string): void {
  expect({ status: res.status, error: res.body?.error }).toEqual({ status, error: code });
  expect(Object.keys(res.body).sort()).toEqual(status === 429 ? ['error', 'message', 'retry_after'] : ['error', 'message']);
  expect(typeof res.body.message).toBe('string');
  expect(res.body.message.length).toBeGreaterThan(0);
  expect(res.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._:-]{1,128}$/);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  if (messageContains !== undefined) expect(res.body.message).toContain(messageContains);
}

export function expectSvcRateHeaders(res: CallResult): void {
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) expect(res.headers.get(name)).toMatch(/^\d+$/);
}

/** Headers of a request made with a svc_ key. */
export function svcHeaders(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}
