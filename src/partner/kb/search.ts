// Full-text search over knowledge-base articles (search-queries.ts): ranked matches with a plain-text excerpt.
import type { Runner } from '../../platform/db/typed.js';
import type { Partition } from '../base/partition.js';
import type { ArticleRow } from './queries.js';
import { matchingArticles, type ArticleFilter } from './search-queries.js';

export interface Match {
  row: ArticleRow;
  rank: number;
  excerpt: string;
}

/**
 * Articles matching `query` (websearch_to_tsquery syntax, which never fails on odd input), best first.
 * `offset` pages through the ranking.
 */
export async function searchArticles(
  db: Runner,
  part: Partition,
  query: string,
  filter: ArticleFilter,
  limit: number,
  offset = 0,
): Promise<Match[]> {
  const found = await matchingArticles(db, part, query, filter, limit, offset);
  return found.map(({ rank, excerpt, ...row }) => ({ row, rank: Number(rank), excerpt: excerpt.trim() }));
}

/** The words of a free text as a query any of whose words may match (websearch syntax: `a or b or c`). */
export function anyWordQuery(text: string, maxWords = 64): string | null {
  const words = [...new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w !== 'or'))].slice(0, maxWords);
  return words.length > 0 ? words.join(' or ') : null;
}
