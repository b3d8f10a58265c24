// Ill-formed Unicode (a lone surrogate, which JSON's \ud800 escape produces) cannot be stored faithfully: PostgreSQL
// receives UTF-8, into which Node writes U+FFFD instead. Requests carrying it are refused where they enter.

declare global {
  interface String {
    /** ES2024; Node 24 has it, the ES2023 lib does not declare it. */
    isWellFormed(): boolean;
    toWellFormed(): string;
  }
}

/** Only strings, objects and arrays can hold a surrogate; numbers, booleans and null are not visited. */
function walked(value: unknown): boolean {
  return typeof value === 'string' || (value !== null && typeof value === 'object');
}

interface Pending {
  node: unknown;
  /** Where the node sits: its parent's entry and its key there (null at the top). */
  parent: Pending | null;
  key: string | null;
  /** A property name that is itself ill-formed: found as soon as the walk reaches it. */
  illFormedKey?: boolean;
}

/** The keys from the top down to this entry; built only for the entry found, so the walk stays linear. */
function pathOf(entry: Pending, prefix: string[]): string[] {
  const keys: string[] = [];
  for (let at: Pending | null = entry; at !== null; at = at.parent) if (at.key !== null) keys.push(at.key);
  return [...prefix, ...keys.reverse()];
}

/**
 * The path of the first string (value or property name) holding a lone surrogate, e.g. "members.2.name"; else null.
 * Iterative, depth first in document order, so a deeply nested value cannot overflow the stack.
 */
export function illFormedPath(value: unknown, path: string[] = []): string[] | null {
  const stack: Pending[] = [{ node: value, parent: null, key: null }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    const { node } = entry;
    if (entry.illFormedKey) return pathOf(entry, path);
    if (typeof node === 'string') {
      if (!node.isWellFormed()) return pathOf(entry, path);
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const children: Pending[] = [];
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) if (walked(node[i])) children.push({ node: node[i], parent: entry, key: String(i) });
    } else {
      for (const [key, item] of Object.entries(node)) {
        // The location names the key with U+FFFD in place of the surrogate, so the error itself is well-formed.
        if (!key.isWellFormed()) children.push({ node: null, parent: entry, key: key.toWellFormed(), illFormedKey: true });
        else if (walked(item)) children.push({ node: item, parent: entry, key });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return null;
}
