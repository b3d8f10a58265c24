// Rewrites of the OpenAPI document before fastify-openapi-glue reads it, so its validators check what the spec says.

const assertionKeywords = new Set([
  'type',
  'enum',
  'const',
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'items',
  'prefixItems',
  'contains',
  'minProperties',
  'maxProperties',
  'required',
  'properties',
  'patternProperties',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'if',
  'then',
  'else',
]);

/**
 * fastify-openapi-glue inlines every `$ref` by replacing the object that holds it, which drops keywords beside
 * the `$ref` (valid in OpenAPI 3.1 / JSON Schema 2020-12): `{ $ref: text, maxLength: 200 }` was validated as
 * plain text, without its length limits. Moving the `$ref` into an `allOf` keeps both.
 */
export function keepRefSiblings(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(keepRefSiblings);
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node as Record<string, unknown>).map(([k, v]) => [k, keepRefSiblings(v)] as const);
  const obj = Object.fromEntries(entries) as Record<string, unknown>;
  if (typeof obj.$ref === 'string' && Object.keys(obj).some((k) => assertionKeywords.has(k))) {
    const { $ref, ...rest } = obj;
    return { ...rest, allOf: [{ $ref }, ...((rest.allOf as unknown[] | undefined) ?? [])] };
  }
  return obj;
}

/**
 * Node delivers header names in lower case, and Fastify validates request.headers as delivered: a header parameter
 * declared as `Idempotency-Key` would always be missing. Header parameter names are lowered for validation.
 */
export function lowercaseHeaderParameters(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(lowercaseHeaderParameters);
  if (node === null || typeof node !== 'object') return node;
  const obj = Object.fromEntries(Object.entries(node as Record<string, unknown>).map(([k, v]) => [k, lowercaseHeaderParameters(v)]));
  if (obj.in === 'header' && typeof obj.name === 'string') obj.name = obj.name.toLowerCase();
  return obj;
}
