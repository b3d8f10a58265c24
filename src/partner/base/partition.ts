// The slice of the inbox tables (knowledge base, agents, files) a request sees: its key's workspace and environment.
import type { Partition } from '../../core/crm/queries.js';
import { keyOf, type PartnerContext } from './context.js';

export type { Partition };

export function partitionOf(ctx: PartnerContext): Partition {
  const key = keyOf(ctx);
  return { workspaceId: key.workspaceId, environment: key.environment };
}
