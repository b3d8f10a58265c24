// The table partner/kb owns, as the migrations create it; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const KbArticleEntity = defineEntity({
  name: 'KbArticle',
  tableName: 'kb_articles',
  properties: {
    id: p.uuid().primary(),
    workspaceId: reference(p.uuid().fieldName('workspace_id'), 'Workspace', 'kb_articles_workspace_id_fkey'),
    environment: p.text(),
    title: p.text(),
    body: p.text(),
    tags: p.array().columnType('text[]').defaultRaw("'{}'::text[]"),
    createdAt: p.datetime().fieldName('created_at').defaultRaw('now()'),
    updatedAt: p.datetime().fieldName('updated_at').defaultRaw('now()'),
  },
  // Indexes given as DDL, which MikroORM matches by name only; the schema check compares it with the catalogue's text.
  indexes: [
    {
      name: 'kb_articles_list',
      expression: 'CREATE INDEX kb_articles_list ON kb_articles USING btree (workspace_id, environment, id DESC)',
    },
    {
      name: 'kb_articles_search',
      expression:
        "CREATE INDEX kb_articles_search ON kb_articles USING gin (to_tsvector('simple'::regconfig, ((title || ' '::text) || body)))",
    },
  ],
  checks: [
    {
      name: 'kb_articles_environment_check',
      expression: "((environment = ANY (ARRAY['live'::text, 'test'::text, 'dev'::text])))",
    },
  ],
});
export type KbArticle = InferEntity<typeof KbArticleEntity>;
