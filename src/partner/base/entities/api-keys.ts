// The tables partner/api-keys owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const ApiKeyEntity = defineEntity({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: p.uuid().primary(),
    workspaceId: reference(p.uuid().fieldName('workspace_id'), 'Workspace', 'api_keys_workspace_id_fkey'),
    name: p.text(),
    prefix: p.text(),
    keyHash: p.blob().fieldName('key_hash'),
    environment: p.text(),
    scopes: p.array().columnType('text[]'),
    status: p.text(),
    createdBy: reference(p.uuid().fieldName('created_by').nullable(), 'Account', 'api_keys_created_by_fkey'),
    createdAt: p.datetime().fieldName('created_at').defaultRaw('now()'),
    expiresAt: p.datetime().fieldName('expires_at').nullable(),
    lastUsedAt: p.datetime().fieldName('last_used_at').nullable(),
    revokedAt: p.datetime().fieldName('revoked_at').nullable(),
    revokedBy: reference(p.uuid().fieldName('revoked_by').nullable(), 'Account', 'api_keys_revoked_by_fkey'),
  },
  // Indexes given as DDL, which MikroORM matches by name only; the schema check compares it with the catalogue's text:
  // - descending columns: MikroORM reads DESC back as ASC when the name ends an earlier column's (id after room_id)
  indexes: [
    {
      name: 'api_keys_workspace',
      expression: 'CREATE INDEX api_keys_workspace ON api_keys USING btree (workspace_id, id DESC)',
    },
  ],
  uniques: [{ name: 'api_keys_key_hash_key', properties: ['keyHash'] }],
  checks: [
    {
      name: 'api_keys_environment_check',
      expression: "((environment = ANY (ARRAY['live'::text, 'test'::text, 'dev'::text])))",
    },
    { name: 'api_keys_status_check', expression: "((status = ANY (ARRAY['active'::text, 'revoked'::text])))" },
  ],
});
export type ApiKey = InferEntity<typeof ApiKeyEntity>;
