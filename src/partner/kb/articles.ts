// Knowledge-base articles of one workspace and environment: rows, their wire form, and list/get/create/update/delete.
import type { components } from '../../../generated/types/partner.js';
import type { Clock } from '../../platform/clock.js';
import type { Runner } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import { partnerErrors } from '../base/errors.js';
import { idList, listIn, type ListPage, type ListQuery } from '../base/paging.js';
import type { Partition } from '../base/partition.js';
import { articleById, articlePage, deleteArticle, existingArticleIds, insertArticle, updateArticle, type ArticleRow } from './queries.js';

export type Article = components['schemas']['Kb.Article'];
type ArticleCreate = components['schemas']['Kb.ArticleCreate'];
type ArticleUpdate = components['schemas']['Kb.ArticleUpdate'];

export const articleNotFound = () => partnerErrors.notFound('article_not_found', 'The article');

export function articlePath(id: string): string {
  return `/api/v1/inbox/kb/articles/${id}`;
}

export function renderArticle(row: ArticleRow): Article {
  return {
    object: 'kb.article',
    id: row.id,
    title: row.title,
    body: row.body,
    tags: row.tags,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** Tags kept once each, in the order first given. */
const uniqueTags = (tags: readonly string[] | undefined) => [...new Set(tags ?? [])];

export class ArticleStore {
  constructor(private readonly clock: Clock) {}

  list(db: Runner, part: Partition, query: ListQuery & { tag?: string }): Promise<ListPage<Article>> {
    const list = listIn(part, 'kb_articles', { tag: query.tag });
    return idList(list, query, (after, limit) => articlePage(db, part, query.tag, after, limit), renderArticle);
  }

  async get(db: Runner, part: Partition, id: string): Promise<Article> {
    const row = await articleById(db, part, id);
    if (!row) throw articleNotFound();
    return renderArticle(row);
  }

  async create(db: Runner, part: Partition, body: ArticleCreate): Promise<Article> {
    const row = await insertArticle(db, part, {
      id: newId(),
      title: body.title,
      body: body.body,
      tags: uniqueTags(body.tags),
      at: this.clock.now(),
    });
    return renderArticle(row);
  }

  /** Changes the given fields only; an empty body changes nothing (updated_at included). */
  async update(db: Runner, part: Partition, id: string, body: ArticleUpdate): Promise<Article> {
    if (body.title === undefined && body.body === undefined && body.tags === undefined) return this.get(db, part, id);
    const changes = { title: body.title, body: body.body, tags: body.tags ? uniqueTags(body.tags) : undefined };
    const row = await updateArticle(db, part, id, changes, this.clock.now());
    if (!row) throw articleNotFound();
    return renderArticle(row);
  }

  async delete(db: Runner, part: Partition, id: string): Promise<void> {
    if ((await deleteArticle(db, part, id)) !== 1) throw articleNotFound();
  }

  /** The ids among `ids` that are articles of the partition. */
  async existing(db: Runner, part: Partition, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    return new Set(await existingArticleIds(db, part, ids));
  }
}
