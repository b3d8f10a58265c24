// The tables workspace/keys owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const SvcKeyEntity = defineEntity({
  name: 'SvcKey',
  tableName: 'svc_keys',
  properties: {
    id: p.uuid().primary(),
    workspaceId: reference(p.uuid().fieldName('workspace_id'), 'Workspace', 'svc_keys_workspace_id_fkey'),
    name: p.text(),
    description: p.text().nullable(),
    prefix: p.text(),
    lastFour: p.text().fieldName('last_four'),
    keyHash: p.blob().fieldName('key_hash'),
    environment: p.text(),
    scopes: p.array().columnType('text[]'),
    ipAllowList: p.array().columnType('text[]').fieldName('ip_allow_list').defaultRaw("'{}'::text[]"),
    expiresAt: p.datetime().fieldName('expires_at').nullable(),
    createdBy: reference(p.uuid().fieldName('created_by').nullable(), 'Account', 'svc_keys_created_by_fkey'),
    createdAt: p.datetime().fieldName('created_at'),
    lastUsedAt: p.datetime().fieldName('last_used_at').nullable(),
    revokedAt: p.datetime().fieldName('revoked_at').nullable(),
    revokedBy: reference(p.uuid().fieldName('revoked_by').nullable(), 'Account', 'svc_keys_revoked_by_fkey'),
  },
  // Indexes given as DDL, which MikroORM matches by name only; the schema check compares it with the catalogue's text:
  // - descending columns: MikroORM reads DESC back as ASC when the name ends an earlier column's (id after room_id)
  indexes: [
    {
      name: 'svc_keys_workspace',
      expression: 'CREATE INDEX svc_keys_workspace ON svc_keys USING btree (workspace_id, id DESC)',
    },
  ],
  uniques: [{ name: 'svc_keys_key_hash_key', properties: ['keyHash'] }],
  checks: [
    {
      name: 'svc_keys_environment_check',
      expression: "((environment = ANY (ARRAY['live'::text, 'test'::text])))",
    },
  ],
});
export type SvcKey = InferEntity<typeof SvcKeyEntity>;
