// Field-by-field comparison of two snapshots of a record, for the changes of update-type events.
import type { Changes } from './catalogue.js';

/** JSON text with object keys sorted, so that two equal objects compare equal whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/** The fields (of those named) whose value differs between the two snapshots; absent and null are equal. */
export function changesOf(before: Record<string, unknown>, after: Record<string, unknown>, fields: readonly string[]): Changes {
  const changes: Changes = {};
  for (const field of fields) {
    const from = before[field] ?? null;
    const to = after[field] ?? null;
    if (!sameValue(from, to)) changes[field] = { from, to };
  }
  return changes;
}

/** The named fields of the changes, or undefined when none of them changed. */
export function pick(changes: Changes, fields: readonly string[]): Changes | undefined {
  const picked: Changes = {};
  for (const field of fields) if (changes[field]) picked[field] = changes[field];
  return Object.keys(picked).length > 0 ? picked : undefined;
}

/** The changes without the named fields, or undefined when nothing else changed. */
export function omit(changes: Changes, fields: readonly string[]): Changes | undefined {
  return pick(
    changes,
    Object.keys(changes).filter((f) => !fields.includes(f)),
  );
}
