// The statements of AI agents: one workspace and environment's configuration rows.
import type { Selectable } from 'kysely';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { afterIdPage } from '../base/paging-queries.js';
import type { Partition } from '../base/partition.js';
import { partnerDb, type PartnerTables } from '../base/tables.js';

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

export type AgentRow = Pick<Selectable<PartnerTables['ai_agents']>, (typeof columns)[number]>;

/** One partition's agents, or (with an id) one of them: every statement of the store starts here. */
const inPartition = (part: Partition) =>
  partnerDb.selectFrom('ai_agents').where('workspace_id', '=', part.workspaceId).where('environment', '=', part.environment);

/** The values of a new agent; the lists are written as given. */
export interface NewAgent {
  id: string;
  name: string;
  instructions: string;
  tone: string;
  kbTags: string[];
  kbArticleIds: string[];
  maxSuggestions: number;
  enabled: boolean;
  at: Date;
}

/** The fields of an agent to change; undefined ones are not written. */
export interface AgentChanges {
  name?: string;
  instructions?: string;
  tone?: string;
  kb_tags?: string[];
  kb_article_ids?: string[];
  max_suggestions?: number;
  enabled?: boolean;
}

/** A page of the partition's agents after an id, newest first. */
export function agentPage(db: Runner, part: Partition, afterId: string | undefined, limit: number): Promise<AgentRow[]> {
  return rows(db, afterIdPage(inPartition(part).select(columns), afterId, limit));
}

export function agentById(db: Runner, part: Partition, id: string): Promise<AgentRow | undefined> {
  return firstRow(db, inPartition(part).select(columns).where('id', '=', id));
}

export async function insertAgent(db: Runner, part: Partition, agent: NewAgent): Promise<AgentRow> {
  const [row] = await rows(
    db,
    partnerDb
      .insertInto('ai_agents')
      .values({
        id: agent.id,
        workspace_id: part.workspaceId,
        environment: part.environment,
        name: agent.name,
        instructions: agent.instructions,
        tone: agent.tone,
        kb_tags: agent.kbTags,
        kb_article_ids: agent.kbArticleIds,
        max_suggestions: agent.maxSuggestions,
        enabled: agent.enabled,
        created_at: agent.at,
        updated_at: agent.at,
      })
      .returning(columns),
  );
  return row!;
}

/** The changed agent, or undefined when the partition has none of this id. */
export function updateAgent(db: Runner, part: Partition, id: string, changes: AgentChanges, at: Date): Promise<AgentRow | undefined> {
  return firstRow(
    db,
    partnerDb
      .updateTable('ai_agents')
      .set({ ...changes, updated_at: at })
      .where('workspace_id', '=', part.workspaceId)
      .where('environment', '=', part.environment)
      .where('id', '=', id)
      .returning(columns),
  );
}

/** How many agents were deleted (0 or 1). */
export function deleteAgent(db: Runner, part: Partition, id: string): Promise<number> {
  return affected(
    db,
    partnerDb
      .deleteFrom('ai_agents')
      .where('workspace_id', '=', part.workspaceId)
      .where('environment', '=', part.environment)
      .where('id', '=', id),
  );
}

/** The partition's articles, agents and enabled agents, counted in one statement. */
export async function inboxCounts(db: Runner, part: Partition): Promise<{ articles: number; agents: number; enabled_agents: number }> {
  const articles = partnerDb
    .selectFrom('kb_articles')
    .where('workspace_id', '=', part.workspaceId)
    .where('environment', '=', part.environment);
  const agents = inPartition(part);
  const r = await firstRow(
    db,
    partnerDb.selectNoFrom((eb) => [
      articles.select(eb.fn.countAll<number>().as('n')).$asScalar().as('articles'),
      agents.select(eb.fn.countAll<number>().as('n')).$asScalar().as('agents'),
      agents.select(eb.fn.countAll<number>().as('n')).where('enabled', '=', true).$asScalar().as('enabled_agents'),
    ]),
  );
  return { articles: Number(r?.articles ?? 0), agents: Number(r?.agents ?? 0), enabled_agents: Number(r?.enabled_agents ?? 0) };
}

const part: Partition = { workspaceId: example.id, environment: 'live' };

export const examples: QueryExamples = {
  agentPage: (db) => agentPage(db, part, example.otherId, 51),
  agentById: (db) => agentById(db, part, example.otherId),
  insertAgent: (db) =>
    insertAgent(db, part, {
      id: example.otherId,
      name: example.text,
      instructions: example.text,
      tone: 'neutral',
      kbTags: ['billing'],
      kbArticleIds: [example.id],
      maxSuggestions: 3,
      enabled: true,
      at: example.at,
    }),
  updateAgent: (db) => updateAgent(db, part, example.otherId, { name: example.text, enabled: false }, example.at),
  deleteAgent: (db) => deleteAgent(db, part, example.otherId),
  inboxCounts: (db) => inboxCounts(db, part),
};
