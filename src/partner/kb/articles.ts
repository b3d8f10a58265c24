// Knowledge-base articles of one workspace and environment: rows, their wire form, and list/get/create/update/delete.
import type { components } from '../../../generated/types/partner.js';
import type { Clock } from '../../platform/clock.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { newId } from '../../platform/ids.js';
import { partnerErrors } from '../errors.js';
import { afterIdOf, idPage, type ListPage } from '../paging.js';
import type { Partition } from '../partition.js';

export type Article = components['schemas']['Kb.Article'];
type ArticleCreate = components['schemas']['Kb.ArticleCreate'];
type ArticleUpdate = components['schemas']['Kb.ArticleUpdate'];

export interface ArticleRow {
  id: string;
  title: string;
  body: string;
  tags: string[];
  created_at: Date;
  updated_at: Date;
}

export const articleColumns = 'id, title, body, tags, created_at, updated_at';

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

  async list(db: Queryable, part: Partition, query: { limit?: number; cursor?: string; tag?: string }): Promise<ListPage<Article>> {
    const limit = query.limit ?? 50;
    const after = afterIdOf('kb_articles', query.cursor);
    const { rows } = await db.query<ArticleRow>(
      `select ${articleColumns} from kb_articles
        where workspace_id = $1 and environment = $2 and ($3::uuid is null or id < $3) and ($4::text is null or tags @> array[$4::text])
        order by id desc limit $5`,
      [part.workspaceId, part.environment, after ?? null, query.tag ?? null, limit + 1],
    );
    return idPage('kb_articles', rows, limit, renderArticle);
  }

  async get(db: Queryable, part: Partition, id: string): Promise<Article> {
    const { rows } = await db.query<ArticleRow>(
      `select ${articleColumns} from kb_articles where workspace_id = $1 and environment = $2 and id = $3`,
      [part.workspaceId, part.environment, id],
    );
    if (!rows[0]) throw articleNotFound();
    return renderArticle(rows[0]);
  }

  async create(db: Queryable, part: Partition, body: ArticleCreate): Promise<Article> {
    const now = this.clock.now();
    const { rows } = await db.query<ArticleRow>(
      `insert into kb_articles (id, workspace_id, environment, title, body, tags, created_at, updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $7) returning ${articleColumns}`,
      [newId(), part.workspaceId, part.environment, body.title, body.body, uniqueTags(body.tags), now],
    );
    return renderArticle(rows[0]!);
  }

  /** Changes the given fields only; an empty body changes nothing (updated_at included). */
  async update(db: Queryable, part: Partition, id: string, body: ArticleUpdate): Promise<Article> {
    if (body.title === undefined && body.body === undefined && body.tags === undefined) return this.get(db, part, id);
    const { rows } = await db.query<ArticleRow>(
      `update kb_articles set title = coalesce($4, title), body = coalesce($5, body), tags = coalesce($6, tags), updated_at = $7
        where workspace_id = $1 and environment = $2 and id = $3 returning ${articleColumns}`,
      [part.workspaceId, part.environment, id, body.title ?? null, body.body ?? null, body.tags ? uniqueTags(body.tags) : null, this.clock.now()],
    );
    if (!rows[0]) throw articleNotFound();
    return renderArticle(rows[0]);
  }

  async delete(db: Queryable, part: Partition, id: string): Promise<void> {
    const { rowCount } = await db.query('delete from kb_articles where workspace_id = $1 and environment = $2 and id = $3', [part.workspaceId, part.environment, id]);
    if (rowCount !== 1) throw articleNotFound();
  }

  /** The ids among `ids` that are articles of the partition. */
  async existing(db: Queryable, part: Partition, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { rows } = await db.query<{ id: string }>(
      'select id from kb_articles where workspace_id = $1 and environment = $2 and id = any($3::uuid[])',
      [part.workspaceId, part.environment, ids],
    );
    return new Set(rows.map((r) => r.id));
  }
}
