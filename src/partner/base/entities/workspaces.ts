// The tables partner/workspaces owns, as the migrations create them; the schema check holds the two together.
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { reference } from '../../../platform/db/reference.js';

export const WorkspaceRoleEntity = defineEntity({
  name: 'WorkspaceRole',
  tableName: 'workspace_roles',
  properties: {
    workspaceId: reference(p.uuid().primary().fieldName('workspace_id'), 'Workspace', 'workspace_roles_workspace_id_fkey'),
    name: p.text().primary(),
    createdAt: p.datetime().fieldName('created_at').defaultRaw('now()'),
  },
});
export type WorkspaceRole = InferEntity<typeof WorkspaceRoleEntity>;

export const RoleCellEntity = defineEntity({
  name: 'RoleCell',
  tableName: 'role_cells',
  properties: {
    workspaceId: reference(p.uuid().primary().fieldName('workspace_id'), 'Workspace', 'role_cells_workspace_id_fkey'),
    role: p.text().primary(),
    cell: p.text().primary(),
    granted: p.boolean(),
    updatedAt: p.datetime().fieldName('updated_at').defaultRaw('now()'),
  },
  checks: [
    {
      name: 'role_cells_cell_check',
      expression: "((cell = ANY (ARRAY['api_keys.view'::text, 'api_keys.create'::text, 'api_keys.delete'::text])))",
    },
  ],
});
export type RoleCell = InferEntity<typeof RoleCellEntity>;
