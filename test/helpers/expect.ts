// Assertions shared by the HTTP tests: every chat error is { error: { code, message, details? }, meta: { requestId } }
// with X-Request-Id equal to meta.requestId, served as JSON.
import type pg from 'pg';

export interface CallResult {
  status: number;
  body: any;
  headers: Headers;
}

/** Asserts the status, code and (when given) that every listed location appears in error.details. */
export function expectError(res: CallResult, status: number, code: string, locations?: string | string[]): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(Object.keys(res.body).sort()).toEqual(['error', 'meta']);
  expect(typeof res.body.error.message).toBe('string');
  expect(res.body.error.message.length).toBeGreaterThan(0);
  expect(typeof res.body.meta.requestId).toBe('string');
  expect(res.headers.get('x-request-id')).toBe(res.body.meta.requestId);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  if (locations !== undefined) {
    const wanted = Array.isArray(locations) ? locations : [locations];
    const got = (res.body.error.details ?? []).map((d: { location: string }) => d.location);
    expect(got).toEqual(expect.arrayContaining(wanted));
    for (const d of res.body.error.details) expect(typeof d.message).toBe('string');
  }
}

/** Asserts a success envelope with the request id in meta and header. */
export function expectOk(res: CallResult, status = 200): void {
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
  expect(res.body.data).toBeDefined();
  expect(res.headers.get('x-request-id')).toBe(res.body.meta.requestId);
}

/** One number from a count(*) query. */
export async function count(db: pg.Pool, sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await db.query<{ n: string | number }>(sql, params);
  return Number(rows[0]?.n ?? 0);
}

/** The shortest bound of any wait: a machine busy with other work can take seconds to get anywhere. */
const minimumWaitMs = 15_000;

/**
 * Polls until check() returns a truthy value or the time runs out, after `timeoutMs` but never under 15 s: a
 * condition that holds ends the wait at once, so a generous bound costs a passing test nothing, and how fast
 * something happens is a benchmark's question, not a test's.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = minimumWaitMs,
  everyMs = 25,
): Promise<T> {
  timeoutMs = Math.max(timeoutMs, minimumWaitMs);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
