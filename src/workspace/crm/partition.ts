import type { Partition } from '../../core/crm/queries.js';
import { keyOf, type WorkspaceContext } from '../base/context.js';

/** The workspace and environment of the request's key: every family's rows are bounded by both. */
export function partitionOf(ctx: WorkspaceContext): Partition {
  const key = keyOf(ctx);
  return { workspaceId: key.workspaceId, environment: key.environment };
}
