// AI agents of one workspace and environment: their configuration rows, wire form, and list/get/create/update/delete.
import type { Selectable } from 'kysely';
import type { components } from '../../../generated/types/partner.js';
import type { Clock } from '../../platform/clock.js';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import { partnerErrors } from '../base/errors.js';
import { ArticleStore } from '../kb/articles.js';
import { idList, listIn, type ListPage, type ListQuery } from '../base/paging.js';
import type { Partition } from '../base/partition.js';
import { partnerDb, type PartnerTables } from '../base/tables.js';

export type Agent = components['schemas']['Ai.Agent'];
type AgentCreate = components['schemas']['Ai.AgentCreate'];
type AgentUpdate = components['schemas']['Ai.AgentUpdate'];
type Tone = components['schemas']['Ai.Tone'];

/** Suggestions per call without an agent, and the most an agent may ask for. */
export const defaultMaxSuggestions = 3;
export const maxSuggestionsLimit = 10;

const columns = [
  'id',
  'name',
  'instructions',
  'tone',
  'kb_tags',
  'kb_article_ids',
  'max_suggestions',
  'enabled',
  'created_at',
  'updated_at',
] as const;

/** One partition's agents, or (with an id) one of them: every statement of the store starts here. */
const inPartition = (part: Partition) =>
  partnerDb.selectFrom('ai_agents').where('workspace_id', '=', part.workspaceId).where('environment', '=', part.environment);

export type AgentRow = Pick<Selectable<PartnerTables['ai_agents']>, (typeof columns)[number]>;

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
    return idList(db, listIn(part, 'ai_agents'), query, inPartition(part).select(columns), renderAgent);
  }

  async row(db: Runner, part: Partition, id: string): Promise<AgentRow> {
    const row = await firstRow(db, inPartition(part).select(columns).where('id', '=', id));
    if (!row) throw agentNotFound();
    return row;
  }

  async create(db: Runner, part: Partition, body: AgentCreate): Promise<Agent> {
    const articleIds = unique(body.kb_article_ids?.map((id) => id.toLowerCase()));
    await this.checkArticles(db, part, articleIds);
    const now = this.clock.now();
    const [row] = await rows(
      db,
      partnerDb
        .insertInto('ai_agents')
        .values({
          id: newId(),
          workspace_id: part.workspaceId,
          environment: part.environment,
          name: body.name,
          instructions: body.instructions ?? '',
          tone: body.tone ?? 'neutral',
          kb_tags: unique(body.kb_tags),
          kb_article_ids: articleIds,
          max_suggestions: body.max_suggestions ?? defaultMaxSuggestions,
          enabled: body.enabled ?? true,
          created_at: now,
          updated_at: now,
        })
        .returning(columns),
    );
    return renderAgent(row!);
  }

  /** Changes the given fields only; an empty body changes nothing. */
  async update(db: Runner, part: Partition, id: string, body: AgentUpdate): Promise<Agent> {
    if (Object.values(body).every((v) => v === undefined)) return renderAgent(await this.row(db, part, id));
    const articleIds = body.kb_article_ids ? unique(body.kb_article_ids.map((a) => a.toLowerCase())) : null;
    if (articleIds) await this.checkArticles(db, part, articleIds);
    // Fields left out (undefined) are not written.
    const row = await firstRow(
      db,
      partnerDb
        .updateTable('ai_agents')
        .set({
          name: body.name,
          instructions: body.instructions,
          tone: body.tone,
          kb_tags: body.kb_tags ? unique(body.kb_tags) : undefined,
          kb_article_ids: articleIds ?? undefined,
          max_suggestions: body.max_suggestions,
          enabled: body.enabled,
          updated_at: this.clock.now(),
        })
        .where('workspace_id', '=', part.workspaceId)
        .where('environment', '=', part.environment)
        .where('id', '=', id)
        .returning(columns),
    );
    if (!row) throw agentNotFound();
    return renderAgent(row);
  }

  async delete(db: Runner, part: Partition, id: string): Promise<void> {
    const deleted = await affected(
      db,
      partnerDb
        .deleteFrom('ai_agents')
        .where('workspace_id', '=', part.workspaceId)
        .where('environment', '=', part.environment)
        .where('id', '=', id),
    );
    if (deleted !== 1) throw agentNotFound();
  }

  /** Counts for the settings view. */
  async counts(db: Runner, part: Partition): Promise<{ articles: number; agents: number; enabled_agents: number }> {
    const articles = partnerDb
      .selectFrom('kb_articles')
      .where('workspace_id', '=', part.workspaceId)
      .where('environment', '=', part.environment);
    const agents = inPartition(part);
    const r = (await firstRow(
      db,
      partnerDb.selectNoFrom((eb) => [
        articles.select(eb.fn.countAll<number>().as('n')).$asScalar().as('articles'),
        agents.select(eb.fn.countAll<number>().as('n')).$asScalar().as('agents'),
        agents.select(eb.fn.countAll<number>().as('n')).where('enabled', '=', true).$asScalar().as('enabled_agents'),
      ]),
    ))!;
    return { articles: Number(r.articles), agents: Number(r.agents), enabled_agents: Number(r.enabled_agents) };
  }

  /** Every named article must be one of the partition's; otherwise 400 naming the field. */
  private async checkArticles(db: Runner, part: Partition, ids: string[]): Promise<void> {
    const found = await this.articles.existing(db, part, ids);
    const missing = ids.find((id) => !found.has(id));
    if (missing) throw partnerErrors.badInput('body.kb_article_ids', `names ${missing}, which is no article of this workspace`);
  }
}
