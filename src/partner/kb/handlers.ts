// The knowledge-base operations under /api/v1/inbox/kb: articles (kb:read, kb:write) and their full-text search.
import type { components } from '../../../generated/types/partner.js';
import type { Partition } from '../../core/crm/queries.js';
import { cursorInt, decodeCursor, encodeCursor } from '../../platform/http/cursor.js';
import type { PartnerDeps } from '../base/deps.js';
import { partnerErrors } from '../base/errors.js';
import type { PartnerFeatureHandlers } from '../base/handler-types.js';
import { listIn } from '../base/paging.js';
import { partitionOf } from '../base/partition.js';
import { ArticleStore, articlePath, renderArticle } from './articles.js';
import { searchArticles } from './search.js';

export type KbOperationId =
  'listKbArticles' | 'createKbArticle' | 'getKbArticle' | 'updateKbArticle' | 'deleteKbArticle' | 'searchKbArticles';

type ArticleMatch = components['schemas']['Kb.ArticleMatch'];

/** A search's pages are bound to the key's partition, its words and tag: a cursor of another search is refused. */
const searchList = (part: Partition, q: string, tag: string | undefined) => listIn(part, 'kb_search', { q, tag });

function searchOffset(list: string, raw: string | undefined): number {
  if (raw === undefined) return 0;
  const offset = cursorInt(decodeCursor(raw, list)?.o);
  if (offset === null)
    throw partnerErrors.badInput('query.cursor', 'is not a cursor this search returned; pass next_cursor back with the same q and tag');
  return offset;
}

export function kbHandlers(deps: PartnerDeps): PartnerFeatureHandlers<KbOperationId> {
  const articles = new ArticleStore(deps.clock);
  return {
    async listKbArticles({ query }, ctx) {
      return { status: 200, body: await articles.list(ctx.db, partitionOf(ctx), query ?? {}) };
    },
    async createKbArticle({ body }, ctx) {
      const article = await articles.create(ctx.db, partitionOf(ctx), body);
      return { status: 201, body: article, location: articlePath(article.id) };
    },
    async getKbArticle({ params }, ctx) {
      return { status: 200, body: await articles.get(ctx.db, partitionOf(ctx), params.id) };
    },
    async updateKbArticle({ params, body }, ctx) {
      return { status: 200, body: await articles.update(ctx.db, partitionOf(ctx), params.id, body) };
    },
    async deleteKbArticle({ params }, ctx) {
      await articles.delete(ctx.db, partitionOf(ctx), params.id);
      return { status: 200, body: { object: 'kb.article', id: params.id, deleted: true } };
    },
    async searchKbArticles({ query }, ctx) {
      const limit = query.limit ?? 50;
      const part = partitionOf(ctx);
      const list = searchList(part, query.q, query.tag);
      const offset = searchOffset(list, query.cursor);
      const matches = await searchArticles(ctx.db, part, query.q, { tag: query.tag }, limit + 1, offset);
      const hasMore = matches.length > limit;
      const data: ArticleMatch[] = matches
        .slice(0, limit)
        .map((m) => ({ object: 'kb.search_result', article: renderArticle(m.row), rank: m.rank, excerpt: m.excerpt }));
      return {
        status: 200,
        body: {
          object: 'list',
          data,
          has_more: hasMore,
          next_cursor: hasMore ? encodeCursor({ o: offset + limit }, list) : null,
        },
      };
    },
  };
}
