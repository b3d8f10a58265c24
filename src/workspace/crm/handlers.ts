// The /leads family: typed in, one service call, the lead out.
import type { Partition } from '../../partner/crm/records.js';
import { keyOf, type WorkspaceContext } from '../context.js';
import type { WorkspaceDeps } from '../deps.js';
import type { WorkspaceFeatureHandlers } from '../handler-types.js';
import { LeadService, leadsPath } from './leads.js';

function partitionOf(ctx: WorkspaceContext): Partition {
  const key = keyOf(ctx);
  return { workspaceId: key.workspaceId, environment: key.environment };
}

export function leadHandlers(deps: WorkspaceDeps): WorkspaceFeatureHandlers<'listLeads' | 'createLead' | 'getLead' | 'updateLead'> {
  const leads = new LeadService(deps.clock);
  return {
    async listLeads({ query }, ctx) {
      return { status: 200, body: await leads.list(deps.sql, partitionOf(ctx), query ?? {}) };
    },
    async createLead({ body }, ctx) {
      const lead = await leads.create(deps.sql, partitionOf(ctx), body);
      return { status: 201, body: lead, location: `${leadsPath}/${lead.id}` };
    },
    async getLead({ params }, ctx) {
      return { status: 200, body: await leads.get(deps.sql, partitionOf(ctx), params.id) };
    },
    async updateLead({ params, body }, ctx) {
      return { status: 200, body: await leads.update(deps.sql, partitionOf(ctx), params.id, body) };
    },
  };
}
