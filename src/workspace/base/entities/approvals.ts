// The tables workspace/approvals owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const ApprovalEntity = defineEntity({
  name: 'Approval',
  tableName: 'approvals',
  properties: {
    id: p.uuid().primary(),
    workspaceId: reference(p.uuid().fieldName('workspace_id'), 'Workspace', 'approvals_workspace_id_fkey'),
    environment: p.text(),
    title: p.text(),
    description: p.text().nullable(),
    requestedBy: p.uuid().fieldName('requested_by'),
    approverIds: p.array().columnType('uuid[]').fieldName('approver_ids'),
    status: p.text(),
    currentStep: p.integer().fieldName('current_step').nullable(),
    completedAt: p.datetime().fieldName('completed_at').nullable(),
    createdAt: p.datetime().fieldName('created_at'),
    updatedAt: p.datetime().fieldName('updated_at'),
  },
  // Indexes given as DDL, which MikroORM matches by name only; the schema check compares it with the catalogue's text:
  // - descending columns: MikroORM reads DESC back as ASC when the name ends an earlier column's (id after room_id)
  indexes: [
    {
      name: 'approvals_list',
      expression: 'CREATE INDEX approvals_list ON approvals USING btree (workspace_id, environment, id DESC)',
    },
  ],
  checks: [
    {
      name: 'approvals_environment_check',
      expression: "((environment = ANY (ARRAY['live'::text, 'test'::text])))",
    },
    {
      name: 'approvals_approver_ids_check',
      expression: '(((cardinality(approver_ids) >= 1) AND (cardinality(approver_ids) <= 10)))',
    },
    {
      name: 'approvals_status_check',
      expression: "((status = ANY (ARRAY['pending'::text, 'approved'::text, 'rejected'::text, 'cancelled'::text])))",
    },
  ],
});
export type Approval = InferEntity<typeof ApprovalEntity>;

export const ApprovalDecisionEntity = defineEntity({
  name: 'ApprovalDecision',
  tableName: 'approval_decisions',
  properties: {
    id: p.uuid().primary(),
    approvalId: reference(p.uuid().fieldName('approval_id'), 'Approval', 'approval_decisions_approval_id_fkey'),
    step: p.integer(),
    approverId: p.uuid().fieldName('approver_id'),
    decision: p.text(),
    comment: p.text().nullable(),
    createdAt: p.datetime().fieldName('created_at'),
  },
  uniques: [{ name: 'approval_decisions_approval_id_step_key', properties: ['approvalId', 'step'] }],
  checks: [
    {
      name: 'approval_decisions_decision_check',
      expression: "((decision = ANY (ARRAY['approve'::text, 'reject'::text])))",
    },
  ],
});
export type ApprovalDecision = InferEntity<typeof ApprovalDecisionEntity>;
