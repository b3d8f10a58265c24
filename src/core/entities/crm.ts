// The tables core/crm owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../platform/db/reference.js';

export const CrmRecordEntity = defineEntity({
  name: 'CrmRecord',
  tableName: 'crm_records',
  properties: {
    id: p.uuid().primary(),
    workspaceId: reference(p.uuid().fieldName('workspace_id'), 'Workspace', 'crm_records_workspace_id_fkey'),
    environment: p.text(),
    resource: p.text(),
    status: p.text().nullable(),
    data: p.json<unknown>(),
    createdAt: p.datetime().fieldName('created_at').defaultRaw('now()'),
    updatedAt: p.datetime().fieldName('updated_at').defaultRaw('now()'),
  },
  // Indexes given as DDL, which MikroORM matches by name only; the schema check compares it with the catalogue's text:
  // - descending columns: MikroORM reads DESC back as ASC when the name ends an earlier column's (id after room_id)
  indexes: [
    {
      name: 'crm_records_list',
      expression: 'CREATE INDEX crm_records_list ON crm_records USING btree (workspace_id, environment, resource, id DESC)',
    },
    {
      name: 'crm_records_status',
      expression: 'CREATE INDEX crm_records_status ON crm_records USING btree (workspace_id, environment, resource, status, id DESC)',
    },
  ],
});
export type CrmRecord = InferEntity<typeof CrmRecordEntity>;
