// Opaque cursors: base64url of a small JSON keyset followed by a truncated HMAC-SHA256 tag. Only cursors this
// deployment issued decode, so a hand-built keyset never reaches SQL; anything else is rejected by the caller with
// its interface's invalid-cursor error. The secret is shared by every node (see src/platform/cursor-secret.ts).
import { createHmac, timingSafeEqual } from 'node:crypto';

const tagBytes = 16;
const maxRawLength = 512;

/** Signing keys of this process: the first signs, any verifies (tests run several platforms in one process). */
let keys: Buffer[] = [];

export function installCursorSecret(secret: string): void {
  const key = Buffer.from(secret, 'utf8');
  keys = [key, ...keys.filter((k) => !k.equals(key))];
}

function tag(key: Buffer, payload: Buffer): Buffer {
  return createHmac('sha256', key).update(payload).digest().subarray(0, tagBytes);
}

export type CursorValue = string | number;

function encodable(value: unknown): value is CursorValue {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  return typeof value === 'string' && value.isWellFormed() && !value.includes('\u0000');
}

export function encodeCursor(keyset: Record<string, CursorValue>): string {
  const signer = keys[0];
  if (!signer) throw new Error('No cursor secret is installed; startPlatform installs it before the listeners start');
  for (const [name, value] of Object.entries(keyset)) {
    if (!encodable(value)) throw new Error(`Cursor field ${name} must be a safe integer or a well-formed string`);
  }
  const payload = Buffer.from(JSON.stringify(keyset), 'utf8');
  return Buffer.concat([payload, tag(signer, payload)]).toString('base64url');
}

/** The keyset of a cursor this deployment issued, or null for anything else (forged, altered, truncated). */
export function decodeCursor(raw: string): Record<string, unknown> | null {
  if (typeof raw !== 'string' || raw.length > maxRawLength || !/^[A-Za-z0-9_-]+$/.test(raw)) return null;
  const bytes = Buffer.from(raw, 'base64url');
  if (bytes.length <= tagBytes) return null;
  const payload = bytes.subarray(0, bytes.length - tagBytes);
  const sent = bytes.subarray(bytes.length - tagBytes);
  if (!keys.some((key) => timingSafeEqual(tag(key, payload), sent))) return null;
  try {
    const value: unknown = JSON.parse(payload.toString('utf8'));
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
    return Object.values(value).every(encodable) ? (value as Record<string, unknown>) : null;
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
