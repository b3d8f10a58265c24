// The table partner/ai owns, as the migrations create it; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const AiAgentEntity = defineEntity({
  name: 'AiAgent',
  tableName: 'ai_agents',
  properties: {
    id: p.uuid().primary(),
    workspaceId: reference(p.uuid().fieldName('workspace_id'), 'Workspace', 'ai_agents_workspace_id_fkey'),
    environment: p.text(),
    name: p.text(),
    instructions: p.text().defaultRaw("''::text"),
    tone: p.text(),
    kbTags: p.array().columnType('text[]').fieldName('kb_tags').defaultRaw("'{}'::text[]"),
    kbArticleIds: p.array().columnType('uuid[]').fieldName('kb_article_ids').defaultRaw("'{}'::uuid[]"),
    maxSuggestions: p.integer().fieldName('max_suggestions'),
    enabled: p.boolean().defaultRaw('true'),
    createdAt: p.datetime().fieldName('created_at').defaultRaw('now()'),
    updatedAt: p.datetime().fieldName('updated_at').defaultRaw('now()'),
  },
  indexes: [
    {
      name: 'ai_agents_list',
      expression: 'CREATE INDEX ai_agents_list ON ai_agents USING btree (workspace_id, environment, id DESC)',
    },
  ],
  checks: [
    {
      name: 'ai_agents_environment_check',
      expression: "((environment = ANY (ARRAY['live'::text, 'test'::text, 'dev'::text])))",
    },
  ],
});
export type AiAgent = InferEntity<typeof AiAgentEntity>;
