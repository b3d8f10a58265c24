// Suggested replies without a language model: the message's words are looked up in the knowledge base by full-text
// search (any word may match, best-ranked article first), and each matching article's passage around those words is
// a suggested reply. An agent narrows the articles (its tags and article ids) and sets how many come back.
import type { components } from '../../../generated/types/partner.js';
import type { Runner } from '../../platform/db/typed.js';
import { partnerErrors } from '../base/errors.js';
import { anyWordQuery, searchArticles } from '../kb/search.js';
import type { Partition } from '../base/partition.js';
import { agentTone, defaultMaxSuggestions, type AgentStore } from './agents.js';

type Suggestions = components['schemas']['Ai.Suggestions'];

export async function suggestReplies(
  db: Runner,
  agents: AgentStore,
  part: Partition,
  text: string,
  agentId: string | undefined,
): Promise<Suggestions> {
  const agent = agentId !== undefined ? await agents.row(db, part, agentId) : undefined;
  if (agent && !agent.enabled)
    throw partnerErrors.conflict('agent_disabled', 'The agent is disabled; enable it or call without agent_id.', { agent_id: agent.id });
  const query = anyWordQuery(text);
  const matches = query
    ? await searchArticles(
        db,
        part,
        query,
        { tags: agent?.kb_tags, ids: agent?.kb_article_ids },
        agent?.max_suggestions ?? defaultMaxSuggestions,
      )
    : [];
  return {
    object: 'ai.suggestions',
    agent_id: agent?.id ?? null,
    tone: agent ? agentTone(agent) : 'neutral',
    suggestions: matches.map((m) => ({
      object: 'ai.suggestion',
      text: m.excerpt,
      article_id: m.row.id,
      article_title: m.row.title,
      rank: m.rank,
    })),
  };
}
