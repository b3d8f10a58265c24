// The statements of knowledge-base articles: one workspace and environment's rows.
import { sql, type Selectable } from 'kysely';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { afterIdPage } from '../base/paging-queries.js';
import type { Partition } from '../base/partition.js';
import { partnerDb, type PartnerTables } from '../base/tables.js';

const articleColumns = ['id', 'title', 'body', 'tags', 'created_at', 'updated_at'] as const;

export type ArticleRow = Pick<Selectable<PartnerTables['kb_articles']>, (typeof articleColumns)[number]>;

/** The partition's articles: every statement of the store starts here. */
const inPartition = (part: Partition) =>
  partnerDb.selectFrom('kb_articles').where('workspace_id', '=', part.workspaceId).where('environment', '=', part.environment);

export interface NewArticle {
  id: string;
  title: string;
  body: string;
  tags: string[];
  at: Date;
}

/** A page of the partition's articles after an id, newest first; with a tag, only those carrying it. */
export function articlePage(
  db: Runner,
  part: Partition,
  tag: string | undefined,
  afterId: string | undefined,
  limit: number,
): Promise<ArticleRow[]> {
  const statement = inPartition(part)
    .select(articleColumns)
    .$if(tag !== undefined, (qb) => qb.where(sql<boolean>`tags @> array[${tag}::text]`));
  return rows(db, afterIdPage(statement, afterId, limit));
}

export function articleById(db: Runner, part: Partition, id: string): Promise<ArticleRow | undefined> {
  return firstRow(db, inPartition(part).select(articleColumns).where('id', '=', id));
}

export async function insertArticle(db: Runner, part: Partition, article: NewArticle): Promise<ArticleRow> {
  const [row] = await rows(
    db,
    partnerDb
      .insertInto('kb_articles')
      .values({
        id: article.id,
        workspace_id: part.workspaceId,
        environment: part.environment,
        title: article.title,
        body: article.body,
        tags: article.tags,
        created_at: article.at,
        updated_at: article.at,
      })
      .returning(articleColumns),
  );
  return row!;
}

/** The changed article, or undefined when the partition has none of this id; undefined fields are not written. */
export function updateArticle(
  db: Runner,
  part: Partition,
  id: string,
  changes: { title?: string; body?: string; tags?: string[] },
  at: Date,
): Promise<ArticleRow | undefined> {
  return firstRow(
    db,
    partnerDb
      .updateTable('kb_articles')
      .set({ title: changes.title, body: changes.body, tags: changes.tags, updated_at: at })
      .where('workspace_id', '=', part.workspaceId)
      .where('environment', '=', part.environment)
      .where('id', '=', id)
      .returning(articleColumns),
  );
}

/** How many articles were deleted (0 or 1). */
export function deleteArticle(db: Runner, part: Partition, id: string): Promise<number> {
  return affected(
    db,
    partnerDb
      .deleteFrom('kb_articles')
      .where('workspace_id', '=', part.workspaceId)
      .where('environment', '=', part.environment)
      .where('id', '=', id),
  );
}

/** The ids among `ids` (not empty) that are articles of the partition. */
export async function existingArticleIds(db: Runner, part: Partition, ids: readonly string[]): Promise<string[]> {
  const found = await rows(
    db,
    inPartition(part)
      .select('id')
      .where('id', '=', sql<string>`any(${ids}::uuid[])`),
  );
  return found.map((r) => r.id);
}

const part: Partition = { workspaceId: example.id, environment: 'live' };

export const examples: QueryExamples = {
  articlePage: (db) => articlePage(db, part, 'billing', example.otherId, 51),
  articleById: (db) => articleById(db, part, example.otherId),
  insertArticle: (db) =>
    insertArticle(db, part, { id: example.otherId, title: example.text, body: example.text, tags: ['billing'], at: example.at }),
  updateArticle: (db) => updateArticle(db, part, example.otherId, { title: example.text, tags: ['billing'] }, example.at),
  deleteArticle: (db) => deleteArticle(db, part, example.otherId),
  existingArticleIds: (db) => existingArticleIds(db, part, [example.id, example.otherId]),
};
