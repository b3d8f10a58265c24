// AI agents of one workspace and environment: their configuration rows, wire form, and list/get/create/update/delete.
import type { components } from '../../../generated/types/partner.js';
import type { Clock } from '../../platform/clock.js';
import type { Runner } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import { partnerErrors } from '../base/errors.js';
import { ArticleStore } from '../kb/articles.js';
import { idList, listIn, type ListPage, type ListQuery } from '../base/paging.js';
import type { Partition } from '../base/partition.js';
import { agentById, agentPage, deleteAgent, inboxCounts, insertAgent, updateAgent, type AgentRow } from './queries.js';

export type Agent = components['schemas']['Ai.Agent'];
type AgentCreate = components['schemas']['Ai.AgentCreate'];
type AgentUpdate = components['schemas']['Ai.AgentUpdate'];
type Tone = components['schemas']['Ai.Tone'];

/** Suggestions per call without an agent, and the most an agent may ask for. */
export const defaultMaxSuggestions = 3;
export const maxSuggestionsLimit = 10;

export const agentNotFound = () => partnerErrors.notFound('agent_not_found', 'The agent');

export const agentPath = (id: string) => `/api/v1/inbox/ai/agents/${id}`;

/** The column holds only the spec's Tone values: create and update write nothing else. */
export const agentTone = (row: AgentRow): Tone => row.tone as Tone;

export function renderAgent(row: AgentRow): Agent {
  return {
    object: 'ai.agent',
    id: row.id,
    name: row.name,
    instructions: row.instructions,
    tone: agentTone(row),
    kb_tags: row.kb_tags,
    kb_article_ids: row.kb_article_ids,
    max_suggestions: row.max_suggestions,
    enabled: row.enabled,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const unique = <T>(items: readonly T[] | undefined) => [...new Set(items ?? [])];

export class AgentStore {
  private readonly articles: ArticleStore;

  constructor(private readonly clock: Clock) {
    this.articles = new ArticleStore(clock);
  }

  list(db: Runner, part: Partition, query: ListQuery): Promise<ListPage<Agent>> {
    return idList(listIn(part, 'ai_agents'), query, (after, limit) => agentPage(db, part, after, limit), renderAgent);
  }

  async row(db: Runner, part: Partition, id: string): Promise<AgentRow> {
    const row = await agentById(db, part, id);
    if (!row) throw agentNotFound();
    return row;
  }

  async create(db: Runner, part: Partition, body: AgentCreate): Promise<Agent> {
    const articleIds = unique(body.kb_article_ids?.map((id) => id.toLowerCase()));
    await this.checkArticles(db, part, articleIds);
    const row = await insertAgent(db, part, {
      id: newId(),
      name: body.name,
      instructions: body.instructions ?? '',
      tone: body.tone ?? 'neutral',
      kbTags: unique(body.kb_tags),
      kbArticleIds: articleIds,
      maxSuggestions: body.max_suggestions ?? defaultMaxSuggestions,
      enabled: body.enabled ?? true,
      at: this.clock.now(),
    });
    return renderAgent(row);
  }

  /** Changes the given fields only; an empty body changes nothing. */
  async update(db: Runner, part: Partition, id: string, body: AgentUpdate): Promise<Agent> {
    if (Object.values(body).every((v) => v === undefined)) return renderAgent(await this.row(db, part, id));
    const articleIds = body.kb_article_ids ? unique(body.kb_article_ids.map((a) => a.toLowerCase())) : null;
    if (articleIds) await this.checkArticles(db, part, articleIds);
    // Fields left out (undefined) are not written.
    const changes = {
      name: body.name,
      instructions: body.instructions,
      tone: body.tone,
      kb_tags: body.kb_tags ? unique(body.kb_tags) : undefined,
      kb_article_ids: articleIds ?? undefined,
      max_suggestions: body.max_suggestions,
      enabled: body.enabled,
    };
    const row = await updateAgent(db, part, id, changes, this.clock.now());
    if (!row) throw agentNotFound();
    return renderAgent(row);
  }

  async delete(db: Runner, part: Partition, id: string): Promise<void> {
    if ((await deleteAgent(db, part, id)) !== 1) throw agentNotFound();
  }

  /** Counts for the settings view. */
  counts(db: Runner, part: Partition): Promise<{ articles: number; agents: number; enabled_agents: number }> {
    return inboxCounts(db, part);
  }

  /** Every named article must be one of the partition's; otherwise 400 naming the field. */
  private async checkArticles(db: Runner, part: Partition, ids: string[]): Promise<void> {
    const found = await this.articles.existing(db, part, ids);
    const missing = ids.find((id) => !found.has(id));
    if (missing) throw partnerErrors.badInput('body.kb_article_ids', `names ${missing}, which is no article of this workspace`);
  }
}
