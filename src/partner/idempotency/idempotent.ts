// Wraps the handlers of writes made with an API key so they run inside their Idempotency-Key record's transaction.
import type { PartnerContext } from '../base/context.js';
import type { IdempotencyStore } from './store.js';

type AnyHandler = (input: { body?: unknown }, ctx: PartnerContext) => Promise<{ status: number; body: unknown; location?: string }>;

/** Operation ids of writes made with an API key: POST, PATCH and DELETE with api-key security. */
export function keyWriteOperations(spec: Record<string, unknown>): Set<string> {
  const result = new Set<string>();
  const paths = (spec.paths ?? {}) as Record<string, Record<string, { operationId?: string; security?: Array<Record<string, string[]>> }>>;
  for (const item of Object.values(paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!['post', 'patch', 'delete'].includes(method) || !op?.operationId) continue;
      if ((op.security ?? []).some((s) => 'api-key' in s)) result.add(op.operationId);
    }
  }
  return result;
}

export function idempotent<H>(handler: H, store: IdempotencyStore): H {
  const inner = handler as unknown as AnyHandler;
  const wrapped: AnyHandler = async (input, ctx) => {
    const idem = ctx.idempotency;
    if (!idem || !ctx.key) return inner(input, ctx);
    // Test and live keys of one workspace never share a record.
    const scopedKey = `${ctx.key.environment}:${idem.key}`;
    // Work a handler left for after the commit (cache invalidations) is done before the answer goes out.
    const committed: Array<() => Promise<void>> = [];
    const result = await store.run(ctx.key.workspaceId, scopedKey, idem.fingerprint, (tx) =>
      inner(input, { ...ctx, db: tx, afterCommit: (work) => committed.push(work) }),
    );
    for (const work of committed) await work();
    return result;
  };
  return wrapped as unknown as H;
}
