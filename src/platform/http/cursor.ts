// Opaque cursors: base64url of a small JSON keyset followed by a truncated HMAC-SHA256 tag. Only cursors this
// deployment issued decode, so a hand-built keyset never reaches SQL; anything else is rejected by the caller with
// its interface's invalid-cursor error. The secret is shared by every node (see src/platform/cursor-secret.ts).
import { createHmac, createSecretKey, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';

const tagBytes = 16;
const maxRawLength = 512;

/**
 * Signing keys of this process: the first signs, any verifies. startPlatform installs the deployment's shared key
 * first; the process-local random key behind it only serves code that encodes before that (test tables built at
 * load time), and tests that run several platforms in one process have all their keys accepted.
 */
let keys: KeyObject[] = [createSecretKey(randomBytes(32))];

export function installCursorSecret(secret: string): void {
  // A KeyObject made once: an HMAC keyed with raw bytes imports them on every call, several times the hash's cost.
  const key = createSecretKey(Buffer.from(secret, 'utf8'));
  keys = [key, ...keys.filter((k) => !k.equals(key))];
}

/**
 * The tag covers the list the cursor was issued for (when given) beside its keyset, so a cursor only opens the list
 * it came from: another room's, another caller's or another operation's cursor fails like a forged one.
 */
function tag(key: KeyObject, payload: Buffer, list: string | undefined): Buffer {
  const hmac = createHmac('sha256', key);
  if (list !== undefined) hmac.update(`${list}\u0000`, 'utf8');
  return hmac.update(payload).digest().subarray(0, tagBytes);
}

export type CursorValue = string | number;

const dateTimeShaped = /^[+-]?\d{4,6}-\d{2}-\d{2}T/;

/**
 * Safe integers, and well-formed strings without U+0000; a string shaped like a date-time must be one PostgreSQL
 * reads back (years 1 to 9999, as Date#toISOString writes them).
 */
function decodable(value: unknown): value is CursorValue {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  if (typeof value !== 'string' || !value.isWellFormed() || value.includes('\u0000')) return false;
  return !dateTimeShaped.test(value) || cursorInstant(value) !== null;
}

/**
 * The name of one list as one caller sees it with one set of filters (its cursor and limit left out): a cursor
 * encoded for it is refused by any other list, caller, environment or filter, as a 400 of the list's interface.
 * `scope` names the caller's partition (a workspace and environment, an account).
 */
export function boundList(list: string, scope: readonly string[], filters: object = {}): string {
  const given = Object.entries(filters)
    .filter(([name, value]) => name !== 'cursor' && name !== 'limit' && value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([list, scope, given]);
}

/**
 * Fields must be safe integers or well-formed strings (timestamps from toISOString): decodeCursor refuses anything
 * else. `list` names the list the cursor pages through (operation and scope, e.g. "messages:<roomId>"); only a
 * decodeCursor given the same name accepts it.
 */
export function encodeCursor(keyset: Record<string, CursorValue>, list?: string): string {
  const signer = keys[0]!;
  const payload = Buffer.from(JSON.stringify(keyset), 'utf8');
  return Buffer.concat([payload, tag(signer, payload, list)]).toString('base64url');
}

/** The keyset of a cursor this deployment issued for this list, or null for anything else (forged, altered, truncated, another list's). */
export function decodeCursor(raw: string, list?: string): Record<string, unknown> | null {
  if (typeof raw !== 'string' || raw.length > maxRawLength || !/^[A-Za-z0-9_-]+$/.test(raw)) return null;
  const bytes = Buffer.from(raw, 'base64url');
  if (bytes.length <= tagBytes) return null;
  const payload = bytes.subarray(0, bytes.length - tagBytes);
  const sent = bytes.subarray(bytes.length - tagBytes);
  if (!keys.some((key) => timingSafeEqual(tag(key, payload, list), sent))) return null;
  try {
    const value: unknown = JSON.parse(payload.toString('utf8'));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    return Object.values(value).every(decodable) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

// Typed readers for keyset fields, so that a value reaching SQL is one PostgreSQL accepts.

const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A timestamp as Date#toISOString writes it for years 1 to 9999; else null. */
export function cursorInstant(value: unknown): string | null {
  if (typeof value !== 'string' || !isoInstant.test(value) || value.startsWith('0000')) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) || new Date(time).toISOString() !== value ? null : value;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A uuid in lower case; else null. */
export function cursorUuid(value: unknown): string | null {
  return typeof value === 'string' && uuidPattern.test(value) ? value.toLowerCase() : null;
}

/** A safe integer not below min; else null. */
export function cursorInt(value: unknown, min = 0): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min ? value : null;
}
