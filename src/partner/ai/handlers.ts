// The AI operations under /api/v1/inbox/ai: the settings (ai:read), suggested replies (ai:invoke) and the agents
// (agents:read, agents:manage).
import type { PartnerDeps } from '../base/deps.js';
import type { PartnerFeatureHandlers } from '../base/handler-types.js';
import { partitionOf } from '../base/partition.js';
import { AgentStore, agentPath, defaultMaxSuggestions, maxSuggestionsLimit, renderAgent } from './agents.js';
import { suggestReplies } from './suggestions.js';

export type AiOperationId =
  'getAiSettings' | 'createAiSuggestions' | 'listAiAgents' | 'createAiAgent' | 'getAiAgent' | 'updateAiAgent' | 'deleteAiAgent';

export function aiHandlers(deps: PartnerDeps): PartnerFeatureHandlers<AiOperationId> {
  const agents = new AgentStore(deps.clock);
  return {
    async getAiSettings(_input, ctx) {
      const counts = await agents.counts(ctx.db, partitionOf(ctx));
      return {
        status: 200,
        body: {
          object: 'ai.settings',
          engine: 'kb_full_text_search',
          external_model: false,
          search_configuration: 'simple',
          default_max_suggestions: defaultMaxSuggestions,
          max_suggestions_limit: maxSuggestionsLimit,
          ...counts,
        },
      };
    },
    async createAiSuggestions({ body }, ctx) {
      return { status: 200, body: await suggestReplies(ctx.db, agents, partitionOf(ctx), body.text, body.agent_id?.toLowerCase()) };
    },
    async listAiAgents({ query }, ctx) {
      return { status: 200, body: await agents.list(ctx.db, partitionOf(ctx), query ?? {}) };
    },
    async createAiAgent({ body }, ctx) {
      const agent = await agents.create(ctx.db, partitionOf(ctx), body);
      return { status: 201, body: agent, location: agentPath(agent.id) };
    },
    async getAiAgent({ params }, ctx) {
      return { status: 200, body: renderAgent(await agents.row(ctx.db, partitionOf(ctx), params.id)) };
    },
    async updateAiAgent({ params, body }, ctx) {
      return { status: 200, body: await agents.update(ctx.db, partitionOf(ctx), params.id, body) };
    },
    async deleteAiAgent({ params }, ctx) {
      await agents.delete(ctx.db, partitionOf(ctx), params.id);
      return { status: 200, body: { object: 'ai.agent', id: params.id, deleted: true } };
    },
  };
}
