// The fingerprint's text is what JSON.stringify wrote for the body with its keys sorted (stored fingerprints stay
// comparable), produced without recursion, so any depth is safe.
import { sortedJson } from './request-fingerprint.js';

/** The former recursive definition, kept here as the reference the iterative one must match. */
function reference(value: unknown): string {
  const canonical = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(canonical);
    if (v === null || typeof v !== 'object') return v;
    return Object.fromEntries(
      Object.keys(v as Record<string, unknown>)
        .sort()
        .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
    );
  };
  return JSON.stringify(canonical(value ?? null));
}

test.each([
  [null],
  [{ b: 1, a: [3, { d: 'x', c: null }], e: 'é\u2028"' }],
  [{ 10: 'ten', 2: 'two', b: true, a: false, '01': 'z' }],
  [[1, 'two', [3, [4, []]], {}]],
  [{ nested: { z: { y: { x: [0.5, -0, 1e21] } } }, empty: {} }],
  ['text'],
  [42],
])('matches the sorted-key JSON.stringify for %j', (value) => {
  expect(sortedJson(value)).toBe(reference(value));
});

test('undefined members are left out and undefined items are null, as JSON.stringify does', () => {
  expect(sortedJson({ b: undefined, a: [undefined, 1] })).toBe('{"a":[null,1]}');
});

test('a body nested 100,000 levels deep is written without overflowing the stack', () => {
  const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
  expect(sortedJson(deep)).toHaveLength(200_000);
});
