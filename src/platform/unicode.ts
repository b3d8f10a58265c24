// Ill-formed Unicode (a lone surrogate, which JSON's \ud800 escape produces) cannot be stored faithfully: PostgreSQL
// receives UTF-8, into which Node writes U+FFFD instead. Requests carrying it are refused where they enter.

declare global {
  interface String {
    /** ES2024; Node 24 has it, the ES2023 lib does not declare it. */
    isWellFormed(): boolean;
    toWellFormed(): string;
  }
}

/** The path of the first string (value or property name) holding a lone surrogate, e.g. "members.2.name"; else null. */
export function illFormedPath(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'string') return value.isWellFormed() ? null : path;
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = illFormedPath(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    // The location names the key with U+FFFD in place of the surrogate, so the error itself is well-formed.
    if (!key.isWellFormed()) return [...path, key.toWellFormed()];
    const found = illFormedPath(item, [...path, key]);
    if (found) return found;
  }
  return null;
}
