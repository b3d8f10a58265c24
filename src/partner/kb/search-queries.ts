// Full-text search over knowledge-base articles: PostgreSQL text search with the language-neutral `simple`
// configuration, over the same expression the GIN index kb_articles_search is built on (so the planner uses it).
// Ranked with ts_rank_cd; the excerpt (ts_headline) is computed for the returned rows only.
import { sql } from 'kysely';
import { rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import type { Partition } from '../base/partition.js';
import { partnerDb } from '../base/tables.js';

/** The index's expression over the alias a; the planner uses the index only for this very expression. */
const document = sql`to_tsvector('simple'::regconfig, a.title || ' ' || a.body)`;

/** A plain-text passage of about 35 words around the matched words (no highlight markers). */
const excerptOptions = 'StartSel="", StopSel="", MaxWords=35, MinWords=15, ShortWord=0, MaxFragments=0';

export interface ArticleFilter {
  /** Only articles carrying this tag. */
  tag?: string;
  /** Only articles carrying any of these tags or having one of these ids; both empty or absent: every article. */
  tags?: readonly string[];
  ids?: readonly string[];
}

/**
 * Articles matching `query` (websearch_to_tsquery syntax, which never fails on odd input), best first, with their
 * rank and excerpt. `offset` pages through the ranking.
 */
export function matchingArticles(db: Runner, part: Partition, query: string, filter: ArticleFilter, limit: number, offset: number) {
  const restricted = (filter.tags?.length ?? 0) > 0 || (filter.ids?.length ?? 0) > 0;
  // The ranked page first; the excerpt, the costly part, only for its rows.
  const ranked = partnerDb
    .selectFrom(['kb_articles as a', sql<{ q: string }>`websearch_to_tsquery('simple'::regconfig, ${query})`.as('q')])
    .selectAll('a')
    .select(['q.q', sql<number>`ts_rank_cd(${document}, q.q)`.as('rank')])
    .where('a.workspace_id', '=', part.workspaceId)
    .where('a.environment', '=', part.environment)
    .where(sql<boolean>`${document} @@ q.q`)
    .$if(filter.tag !== undefined, (qb) => qb.where(sql<boolean>`a.tags @> array[${filter.tag}::text]`))
    .$if(restricted, (qb) => qb.where(sql<boolean>`(a.tags && ${filter.tags ?? []}::text[] or a.id = any(${filter.ids ?? []}::uuid[]))`))
    .orderBy('rank', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit)
    .offset(offset)
    .as('m');
  return rows(
    db,
    partnerDb
      .selectFrom(ranked)
      .select(['m.id', 'm.title', 'm.body', 'm.tags', 'm.created_at', 'm.updated_at', 'm.rank'])
      .select(sql<string>`ts_headline('simple'::regconfig, m.body, m.q, ${excerptOptions})`.as('excerpt'))
      .orderBy('m.rank', 'desc')
      .orderBy('m.id', 'desc'),
  );
}

export const examples: QueryExamples = {
  matchingArticles: (db) =>
    matchingArticles(
      db,
      { workspaceId: example.id, environment: 'live' },
      'refund or return',
      { tag: 'billing', tags: ['billing'] },
      10,
      0,
    ),
};
