// Request bodies are parsed by JSON.parse, which nests as deep as the text says; code that walks a value by recursion
// overflows the stack on "[[[[…]]]]". Bodies are refused past this depth before anything walks them.

/** Levels of object or array nesting a request body may have; the top-level value is level 1. */
export const maxBodyDepth = 32;

/** True when the value nests objects or arrays deeper than `max` levels. Iterative: any depth is safe to ask about. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > max) return true;
    const children = Array.isArray(node) ? node : Object.values(node as Record<string, unknown>);
    for (const child of children) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}
