// The tables workspace/audit owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

export const SvcAuditLogEntity = defineEntity({
  name: 'SvcAuditLog',
  tableName: 'svc_audit_log',
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid().fieldName('workspace_id'),
    keyId: p.uuid().fieldName('key_id'),
    time: p.datetime(),
    ip: p.text(),
    method: p.text(),
    endpoint: p.text(),
    statusCode: p.integer().fieldName('status_code'),
  },
  // Indexes given as DDL, which MikroORM matches by name only; the schema check compares it with the catalogue's text:
  // - descending columns: MikroORM reads DESC back as ASC when the name ends an earlier column's (id after room_id)
  indexes: [
    {
      name: 'svc_audit_log_workspace',
      expression: 'CREATE INDEX svc_audit_log_workspace ON svc_audit_log USING btree (workspace_id, "time" DESC, id DESC)',
    },
    {
      name: 'svc_audit_log_key',
      expression: 'CREATE INDEX svc_audit_log_key ON svc_audit_log USING btree (key_id, "time" DESC, id DESC)',
    },
    { name: 'svc_audit_log_time', properties: ['time'] },
  ],
});
export type SvcAuditLog = InferEntity<typeof SvcAuditLogEntity>;
