// What makes two requests "the same content" for Idempotency-Key: method, path with query, and the JSON body with
// its keys sorted, so that key order or whitespace do not count as a change.
import { createHash } from 'node:crypto';

/**
 * The body as JSON text with every object's keys sorted: what JSON.stringify writes for the same value with sorted
 * keys (undefined members left out, undefined array items written as null). Iterative, so depth costs no stack.
 */
export function sortedJson(value: unknown): string {
  const out: string[] = [];
  // Either a value still to write or literal text (brackets, commas, keys) already decided.
  const pending: Array<{ value: unknown } | string> = [{ value }];
  while (pending.length > 0) {
    const next = pending.pop()!;
    if (typeof next === 'string') {
      out.push(next);
      continue;
    }
    const v = next.value;
    if (Array.isArray(v)) {
      const parts: Array<{ value: unknown } | string> = ['['];
      v.forEach((item, i) => parts.push(...(i > 0 ? [','] : []), { value: item === undefined ? null : item }));
      parts.push(']');
      for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]!);
    } else if (v !== null && typeof v === 'object') {
      const obj = v as Record<string, unknown>;
      // The order JSON.stringify gives an object built from the sorted keys: integer-like keys first, ascending.
      const keys = Object.keys(
        Object.fromEntries(
          Object.keys(obj)
            .sort()
            .map((k) => [k, 0]),
        ),
      ).filter((k) => obj[k] !== undefined);
      const parts: Array<{ value: unknown } | string> = ['{'];
      keys.forEach((k, i) => parts.push(`${i > 0 ? ',' : ''}${JSON.stringify(k)}:`, { value: obj[k] }));
      parts.push('}');
      for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]!);
    } else {
      out.push(JSON.stringify(v) ?? 'null');
    }
  }
  return out.join('');
}

export function requestFingerprint(method: string, url: string, body: unknown): Buffer {
  // Raw bytes (an uploaded file) count as they are; walking them as JSON would cost a key per byte.
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${url}\n`)
    .update(Buffer.isBuffer(body) ? Buffer.concat([Buffer.from('bytes:'), body]) : Buffer.from(sortedJson(body ?? null)))
    .digest();
}
