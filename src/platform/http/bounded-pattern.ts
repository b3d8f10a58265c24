// With allErrors Ajv applies every keyword, so a `pattern` ran over a 262,000-character name whose maxLength (64)
// had already failed. Patterns under a maxLength are checked by `x-pattern-within-length` instead: a value longer
// than the limit is left to maxLength's own error and never reaches the regular expression.
import type { AnySchemaObject } from 'ajv';
import type * as Ajv2020Module from 'ajv/dist/2020.js';
import type { DataValidateFunction } from 'ajv/dist/types/index.js';

type AjvInstance = Ajv2020Module.default;

export const boundedPatternKeyword = 'x-pattern-within-length';

interface BoundedPattern {
  pattern: string;
  maxLength: number;
}

/** Code points, as JSON Schema's maxLength counts them; counted only past the UTF-16 length that could matter. */
function longerThan(s: string, max: number): boolean {
  if (s.length <= max) return false;
  let points = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    if (++points > max) return true;
  }
  return false;
}

export function addBoundedPattern(ajv: AjvInstance): void {
  ajv.addKeyword({
    keyword: boundedPatternKeyword,
    type: 'string',
    schemaType: 'object',
    errors: true,
    compile(schema: BoundedPattern) {
      const re = new RegExp(schema.pattern, 'u');
      // Worded as Ajv words its own pattern error, so the error details read the same.
      const failure = [{ keyword: 'pattern', message: `must match pattern "${schema.pattern}"`, params: { pattern: schema.pattern } }];
      const validate: DataValidateFunction = (data: string): boolean => {
        if (longerThan(data, schema.maxLength) || re.test(data)) return true;
        validate.errors = failure;
        return false;
      };
      return validate;
    },
  });
}

/** Applicators whose subschemas check the same value as the schema holding them (so its maxLength applies). */
const sameValueApplicators = ['allOf', 'anyOf', 'oneOf'] as const;

/**
 * A copy of the schema in which every `pattern` that a maxLength bounds (its own schema's, or one above it through
 * allOf/anyOf/oneOf) is checked by the bounded keyword. Patterns with no maxLength over them stay as they are.
 * Schemas are trees here (the glue turns cycles into $ref), so recursion follows the schema, never the input.
 */
export function boundPatterns(node: unknown, bound = Infinity): unknown {
  if (Array.isArray(node)) return node.map((n) => boundPatterns(n));
  if (node === null || typeof node !== 'object') return node;
  const obj = node as AnySchemaObject;
  const own = typeof obj.maxLength === 'number' ? Math.min(obj.maxLength, bound) : bound;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    if ((sameValueApplicators as readonly string[]).includes(key) && Array.isArray(value))
      copy[key] = value.map((v) => boundPatterns(v, own));
    else copy[key] = boundPatterns(value);
  }
  if (typeof copy.pattern === 'string' && Number.isFinite(own)) {
    copy[boundedPatternKeyword] = { pattern: copy.pattern, maxLength: own } satisfies BoundedPattern;
    delete copy.pattern;
  }
  return copy;
}
