// AI agents of one workspace and environment: their configuration rows, wire form, and list/get/create/update/delete.
import type { components } from '../../../generated/types/partner.js';
import type { Clock } from '../../platform/clock.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { newId } from '../../platform/ids.js';
import { partnerErrors } from '../errors.js';
import { ArticleStore } from '../kb/articles.js';
import { afterIdOf, idPage, type ListPage } from '../paging.js';
import type { Partition } from '../partition.js';

export type Agent = components['schemas']['Ai.Agent'];
type AgentCreate = components['schemas']['Ai.AgentCreate'];
type AgentUpdate = components['schemas']['Ai.AgentUpdate'];
type Tone = components['schemas']['Ai.Tone'];

/** Suggestions per call without an agent, and the most an agent may ask for. */
export const defaultMaxSuggestions = 3;
export const maxSuggestionsLimit = 10;

export interface AgentRow {
  id: string;
  name: string;
  instructions: string;
  tone: Tone;
  kb_tags: string[];
  kb_article_ids: string[];
  max_suggestions: number;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

const columns = 'id, name, instructions, tone, kb_tags, kb_article_ids, max_suggestions, enabled, created_at, updated_at';

export const agentNotFound = () => partnerErrors.notFound('agent_not_found', 'The agent');

export const agentPath = (id: string) => `/api/v1/inbox/ai/agents/${id}`;

export function renderAgent(row: AgentRow): Agent {
  return {
    object: 'ai.agent',
    id: row.id,
    name: row.name,
    instructions: row.instructions,
    tone: row.tone,
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

  async list(db: Queryable, part: Partition, query: { limit?: number; cursor?: string }): Promise<ListPage<Agent>> {
    const limit = query.limit ?? 50;
    const after = afterIdOf('ai_agents', query.cursor);
    const { rows } = await db.query<AgentRow>(
      `select ${columns} from ai_agents where workspace_id = $1 and environment = $2 and ($3::uuid is null or id < $3) order by id desc limit $4`,
      [part.workspaceId, part.environment, after ?? null, limit + 1],
    );
    return idPage('ai_agents', rows, limit, renderAgent);
  }

  async row(db: Queryable, part: Partition, id: string): Promise<AgentRow> {
    const { rows } = await db.query<AgentRow>(`select ${columns} from ai_agents where workspace_id = $1 and environment = $2 and id = $3`, [part.workspaceId, part.environment, id]);
    if (!rows[0]) throw agentNotFound();
    return rows[0];
  }

  async create(db: Queryable, part: Partition, body: AgentCreate): Promise<Agent> {
    const articleIds = unique(body.kb_article_ids?.map((id) => id.toLowerCase()));
    await this.checkArticles(db, part, articleIds);
    const now = this.clock.now();
    const { rows } = await db.query<AgentRow>(
      `insert into ai_agents (id, workspace_id, environment, name, instructions, tone, kb_tags, kb_article_ids, max_suggestions, enabled, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11) returning ${columns}`,
      [
        newId(), part.workspaceId, part.environment, body.name, body.instructions ?? '', body.tone ?? 'neutral',
        unique(body.kb_tags), articleIds, body.max_suggestions ?? defaultMaxSuggestions, body.enabled ?? true, now,
      ],
    );
    return renderAgent(rows[0]!);
  }

  /** Changes the given fields only; an empty body changes nothing. */
  async update(db: Queryable, part: Partition, id: string, body: AgentUpdate): Promise<Agent> {
    if (Object.values(body).every((v) => v === undefined)) return renderAgent(await this.row(db, part, id));
    const articleIds = body.kb_article_ids ? unique(body.kb_article_ids.map((a) => a.toLowerCase())) : null;
    if (articleIds) await this.checkArticles(db, part, articleIds);
    const { rows } = await db.query<AgentRow>(
      `update ai_agents set name = coalesce($4, name), instructions = coalesce($5, instructions), tone = coalesce($6, tone),
              kb_tags = coalesce($7, kb_tags), kb_article_ids = coalesce($8, kb_article_ids),
              max_suggestions = coalesce($9, max_suggestions), enabled = coalesce($10, enabled), updated_at = $11
        where workspace_id = $1 and environment = $2 and id = $3 returning ${columns}`,
      [
        part.workspaceId, part.environment, id, body.name ?? null, body.instructions ?? null, body.tone ?? null,
        body.kb_tags ? unique(body.kb_tags) : null, articleIds, body.max_suggestions ?? null, body.enabled ?? null, this.clock.now(),
      ],
    );
    if (!rows[0]) throw agentNotFound();
    return renderAgent(rows[0]);
  }

  async delete(db: Queryable, part: Partition, id: string): Promise<void> {
    const { rowCount } = await db.query('delete from ai_agents where workspace_id = $1 and environment = $2 and id = $3', [part.workspaceId, part.environment, id]);
    if (rowCount !== 1) throw agentNotFound();
  }

  /** Counts for the settings view. */
  async counts(db: Queryable, part: Partition): Promise<{ articles: number; agents: number; enabled_agents: number }> {
    const { rows } = await db.query<{ articles: string; agents: string; enabled_agents: string }>(
      `select (select count(*) from kb_articles where workspace_id = $1 and environment = $2) as articles,
              (select count(*) from ai_agents where workspace_id = $1 and environment = $2) as agents,
              (select count(*) from ai_agents where workspace_id = $1 and environment = $2 and enabled) as enabled_agents`,
      [part.workspaceId, part.environment],
    );
    const r = rows[0]!;
    return { articles: Number(r.articles), agents: Number(r.agents), enabled_agents: Number(r.enabled_agents) };
  }

  /** Every named article must be one of the partition's; otherwise 400 naming the field. */
  private async checkArticles(db: Queryable, part: Partition, ids: string[]): Promise<void> {
    const found = await this.articles.existing(db, part, ids);
    const missing = ids.find((id) => !found.has(id));
    if (missing) throw partnerErrors.badInput('body.kb_article_ids', `names ${missing}, which is no article of this workspace`);
  }
}
