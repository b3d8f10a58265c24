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
  path: string[];
  /** A property name that is itself ill-formed: found as soon as the walk reaches it. */
  illFormedKey?: boolean;
}

/**
 * The path of the first string (value or property name) holding a lone surrogate, e.g. "members.2.name"; else null.
 * Iterative, depth first in document order, so a deeply nested value cannot overflow the stack.
 */
export function illFormedPath(value: unknown, path: string[] = []): string[] | null {
  const stack: Pending[] = [{ node: value, path }];
  while (stack.length > 0) {
    const { node, path: at, illFormedKey } = stack.pop()!;
    if (illFormedKey) return at;
    if (typeof node === 'string') {
      if (!node.isWellFormed()) return at;
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const children: Pending[] = [];
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) if (walked(node[i])) children.push({ node: node[i], path: [...at, String(i)] });
    } else {
      for (const [key, item] of Object.entries(node)) {
        // The location names the key with U+FFFD in place of the surrogate, so the error itself is well-formed.
        if (!key.isWellFormed()) children.push({ node: null, path: [...at, key.toWellFormed()], illFormedKey: true });
        else if (walked(item)) children.push({ node: item, path: [...at, key] });
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return null;
}
