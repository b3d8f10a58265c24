// Helpers of the hardening tests: hand-built cursors as a hostile client would make them, and raw JSON bodies
// (JSON.stringify cannot send a lone-surrogate escape as written).
import { createHmac } from 'node:crypto';
import pg from 'pg';

/** A cursor built by hand: base64url of JSON, unsigned (the format before cursors were signed). */
export function unsignedCursor(keyset: unknown): string {
  return Buffer.from(JSON.stringify(keyset), 'utf8').toString('base64url');
}

/** A cursor in the signed format, signed with a given secret. */
export function cursorSignedWith(secret: string, keyset: unknown, list?: string): string {
  const payload = Buffer.from(JSON.stringify(keyset), 'utf8');
  const hmac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  if (list !== undefined) hmac.update(`${list}\u0000`, 'utf8');
  const tag = hmac.update(payload).digest().subarray(0, 16);
  return Buffer.concat([payload, tag]).toString('base64url');
}

/** The cursor secret the platform generated and stored. */
export async function storedCursorSecret(db: pg.Pool): Promise<string> {
  const { rows } = await db.query<{ value: string }>("select value from platform_secrets where name = 'cursor'");
  if (!rows[0]) throw new Error('no stored cursor secret');
  return rows[0].value;
}

/** Options for call() sending exactly this JSON text. */
export function rawJson(token: string | undefined, text: string, headers: Record<string, string> = {}) {
  return { ...(token ? { token } : {}), rawBody: text, headers: { 'content-type': 'application/json', ...headers } };
}

/**
 * Counts the statements this process sends to PostgreSQL while work runs (every pool query goes through
 * pg.Client#query), so a test can assert how many database round trips a request costs.
 */
export async function countQueries(work: () => Promise<unknown>): Promise<{ count: number; texts: string[] }> {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  const texts: string[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    texts.push(typeof first === 'string' ? first : String((first as { text?: string })?.text ?? first));
    return original.apply(this, args);
  };
  try {
    await work();
  } finally {
    proto.query = original;
  }
  return { count: texts.length, texts };
}
