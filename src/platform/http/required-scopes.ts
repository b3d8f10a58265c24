// The scope each operation of an OpenAPI document needs, as its x-required-scope extension names it: both key
// conventions put the scope in the spec, so the gate reads it from there instead of keeping its own list.

/** Operation id → the scope its x-required-scope extension names. */
export function requiredScopes(spec: Record<string, unknown>): Map<string, string> {
  const result = new Map<string, string>();
  const paths = (spec.paths ?? {}) as Record<string, Record<string, { operationId?: string; 'x-required-scope'?: string }>>;
  for (const item of Object.values(paths)) {
    for (const op of Object.values(item)) {
      if (op && typeof op === 'object' && op.operationId && typeof op['x-required-scope'] === 'string') {
        result.set(op.operationId, op['x-required-scope']);
      }
    }
  }
  return result;
}
