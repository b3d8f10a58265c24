// The tables core/workspaces owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../platform/db/reference.js';

export const WorkspaceEntity = defineEntity({
  name: 'Workspace',
  tableName: 'workspaces',
  properties: {
    id: p.uuid().primary(),
    name: p.text(),
    plan: p.text(),
    ownerId: reference(p.uuid().fieldName('owner_id'), 'Account', 'workspaces_owner_id_fkey'),
    createdAt: p.datetime().fieldName('created_at').defaultRaw('now()'),
    updatedAt: p.datetime().fieldName('updated_at').defaultRaw('now()'),
    svcPlan: p.text().fieldName('svc_plan').defaultRaw("'free'::text"),
    svcRatePerHour: p.integer().fieldName('svc_rate_per_hour').nullable(),
    svcRatePerMinute: p.integer().fieldName('svc_rate_per_minute').nullable(),
    notificationEmail: p.text().fieldName('notification_email').nullable(),
  },
  checks: [
    {
      name: 'workspaces_svc_plan_check',
      expression: "((svc_plan = ANY (ARRAY['free'::text, 'pro'::text, 'business'::text, 'enterprise'::text])))",
    },
    { name: 'workspaces_svc_rate_per_hour_check', expression: '((svc_rate_per_hour > 0))' },
    { name: 'workspaces_svc_rate_per_minute_check', expression: '((svc_rate_per_minute > 0))' },
  ],
});
export type Workspace = InferEntity<typeof WorkspaceEntity>;

export const WorkspaceMemberEntity = defineEntity({
  name: 'WorkspaceMember',
  tableName: 'workspace_members',
  properties: {
    workspaceId: reference(p.uuid().primary().fieldName('workspace_id'), 'Workspace', 'workspace_members_workspace_id_fkey'),
    accountId: reference(p.uuid().primary().fieldName('account_id'), 'Account', 'workspace_members_account_id_fkey'),
    role: p.text(),
    addedAt: p.datetime().fieldName('added_at').defaultRaw('now()'),
  },
  indexes: [{ name: 'workspace_members_account', properties: ['accountId', 'workspaceId'] }],
});
export type WorkspaceMember = InferEntity<typeof WorkspaceMemberEntity>;
