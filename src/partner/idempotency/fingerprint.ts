// What makes two requests "the same content" for Idempotency-Key: method, path with query, and the JSON body with
// its keys sorted, so that key order or whitespace do not count as a change.
import { createHash } from 'node:crypto';

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value as Record<string, unknown>)
      .sort()
      .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
  );
}

export function requestFingerprint(method: string, url: string, body: unknown): Buffer {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${url}\n`)
    .update(JSON.stringify(canonical(body ?? null)))
    .digest();
}
