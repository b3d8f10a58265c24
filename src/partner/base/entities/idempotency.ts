// The tables partner/idempotency owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const IdempotencyKeyEntity = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  properties: {
    workspaceId: reference(p.uuid().primary().fieldName('workspace_id'), 'Workspace', 'idempotency_keys_workspace_id_fkey'),
    idempotencyKey: p.text().primary().fieldName('idempotency_key'),
    requestHash: p.blob().fieldName('request_hash'),
    responseStatus: p.integer().fieldName('response_status'),
    responseBody: p.json<unknown>().fieldName('response_body').nullable(),
    createdAt: p.datetime().fieldName('created_at').defaultRaw('now()'),
  },
  indexes: [{ name: 'idempotency_keys_created', properties: ['createdAt'] }],
});
export type IdempotencyKey = InferEntity<typeof IdempotencyKeyEntity>;
