// Full-text search over knowledge-base articles: PostgreSQL text search with the language-neutral `simple`
// configuration, over the same expression the GIN index kb_articles_search is built on (so the planner uses it).
// Ranked with ts_rank_cd; the excerpt (ts_headline) is computed for the returned rows only.
import type { Queryable } from '../../platform/db/queryable.js';
import type { Partition } from '../partition.js';
import type { ArticleRow } from './articles.js';

/** The index's expression over the alias a; the planner uses the index only for this very expression. */
const documentSql = `to_tsvector('simple'::regconfig, a.title || ' ' || a.body)`;

/** A plain-text passage of about 35 words around the matched words (no highlight markers). */
const excerptOptions = 'StartSel="", StopSel="", MaxWords=35, MinWords=15, ShortWord=0, MaxFragments=0';

export interface Match {
  row: ArticleRow;
  rank: number;
  excerpt: string;
}

export interface ArticleFilter {
  /** Only articles carrying this tag. */
  tag?: string;
  /** Only articles carrying any of these tags or having one of these ids; both empty or absent: every article. */
  tags?: readonly string[];
  ids?: readonly string[];
}

/**
 * Articles matching `query` (websearch_to_tsquery syntax, which never fails on odd input), best first.
 * `offset` pages through the ranking.
 */
export async function searchArticles(db: Queryable, part: Partition, query: string, filter: ArticleFilter, limit: number, offset = 0): Promise<Match[]> {
  const restricted = (filter.tags?.length ?? 0) > 0 || (filter.ids?.length ?? 0) > 0;
  const { rows } = await db.query<ArticleRow & { rank: number; excerpt: string }>(
    `select m.id, m.title, m.body, m.tags, m.created_at, m.updated_at, m.rank, ts_headline('simple'::regconfig, m.body, m.q, $9) as excerpt
       from (select a.*, q, ts_rank_cd(${documentSql}, q) as rank
               from kb_articles a, websearch_to_tsquery('simple'::regconfig, $3) q
              where a.workspace_id = $1 and a.environment = $2 and ${documentSql} @@ q
                and ($4::text is null or a.tags @> array[$4::text])
                and (not $5::boolean or a.tags && $6::text[] or a.id = any($7::uuid[]))
              order by rank desc, a.id desc
              limit $8 offset $10) m
      order by m.rank desc, m.id desc`,
    [part.workspaceId, part.environment, query, filter.tag ?? null, restricted, filter.tags ?? [], filter.ids ?? [], limit, excerptOptions, offset],
  );
  return rows.map(({ rank, excerpt, ...row }) => ({ row, rank: Number(rank), excerpt: excerpt.trim() }));
}

/** The words of a free text as a query any of whose words may match (websearch syntax: `a or b or c`). */
export function anyWordQuery(text: string, maxWords = 64): string | null {
  const words = [...new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w !== 'or'))].slice(0, maxWords);
  return words.length > 0 ? words.join(' or ') : null;
}
