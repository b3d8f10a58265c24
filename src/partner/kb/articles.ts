// Knowledge-base articles of one workspace and environment: rows, their wire form, and list/get/create/update/delete.
import { sql, type Selectable } from 'kysely';
import type { components } from '../../../generated/types/partner.js';
import type { Clock } from '../../platform/clock.js';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import { partnerErrors } from '../base/errors.js';
import { idList, listIn, type ListPage, type ListQuery } from '../base/paging.js';
import type { Partition } from '../base/partition.js';
import { partnerDb, type PartnerTables } from '../base/tables.js';

export type Article = components['schemas']['Kb.Article'];
type ArticleCreate = components['schemas']['Kb.ArticleCreate'];
type ArticleUpdate = components['schemas']['Kb.ArticleUpdate'];

export const articleColumns = ['id', 'title', 'body', 'tags', 'created_at', 'updated_at'] as const;

/** The partition's articles: every statement of the store starts here. */
const inPartition = (part: Partition) =>
  partnerDb.selectFrom('kb_articles').where('workspace_id', '=', part.workspaceId).where('environment', '=', part.environment);

export type ArticleRow = Pick<Selectable<PartnerTables['kb_articles']>, (typeof articleColumns)[number]>;

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
    const statement = inPartition(part)
      .select(articleColumns)
      .$if(query.tag !== undefined, (qb) => qb.where(sql<boolean>`tags @> array[${query.tag}::text]`));
    return idList(db, listIn(part, 'kb_articles', { tag: query.tag }), query, statement, renderArticle);
  }

  async get(db: Runner, part: Partition, id: string): Promise<Article> {
    const row = await firstRow(db, inPartition(part).select(articleColumns).where('id', '=', id));
    if (!row) throw articleNotFound();
    return renderArticle(row);
  }

  async create(db: Runner, part: Partition, body: ArticleCreate): Promise<Article> {
    const now = this.clock.now();
    const [row] = await rows(
      db,
      partnerDb
        .insertInto('kb_articles')
        .values({
          id: newId(),
          workspace_id: part.workspaceId,
          environment: part.environment,
          title: body.title,
          body: body.body,
          tags: uniqueTags(body.tags),
          created_at: now,
          updated_at: now,
        })
        .returning(articleColumns),
    );
    return renderArticle(row!);
  }

  /** Changes the given fields only; an empty body changes nothing (updated_at included). */
  async update(db: Runner, part: Partition, id: string, body: ArticleUpdate): Promise<Article> {
    if (body.title === undefined && body.body === undefined && body.tags === undefined) return this.get(db, part, id);
    const row = await firstRow(
      db,
      partnerDb
        .updateTable('kb_articles')
        .set({ title: body.title, body: body.body, tags: body.tags ? uniqueTags(body.tags) : undefined, updated_at: this.clock.now() })
        .where('workspace_id', '=', part.workspaceId)
        .where('environment', '=', part.environment)
        .where('id', '=', id)
        .returning(articleColumns),
    );
    if (!row) throw articleNotFound();
    return renderArticle(row);
  }

  async delete(db: Runner, part: Partition, id: string): Promise<void> {
    const deleted = await affected(
      db,
      partnerDb
        .deleteFrom('kb_articles')
        .where('workspace_id', '=', part.workspaceId)
        .where('environment', '=', part.environment)
        .where('id', '=', id),
    );
    if (deleted !== 1) throw articleNotFound();
  }

  /** The ids among `ids` that are articles of the partition. */
  async existing(db: Runner, part: Partition, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const found = await rows(
      db,
      inPartition(part)
        .select('id')
        .where('id', '=', sql<string>`any(${ids}::uuid[])`),
    );
    return new Set(found.map((r) => r.id));
  }
}
