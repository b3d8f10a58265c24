// Workspace administration over bearer JWTs: plans, workspaces, members, roles and their API Keys cells.
import { userOf } from '../base/context.js';
import type { PartnerDeps } from '../base/deps.js';
import type { PartnerFeatureHandlers } from '../base/handler-types.js';
import { plans } from './plans.js';
import { WorkspaceService } from './service.js';
import { listOf, planView } from './views.js';

export type WorkspaceOperationId =
  | 'listPlans'
  | 'createWorkspace'
  | 'listWorkspaces'
  | 'getWorkspace'
  | 'setWorkspacePlan'
  | 'listMembers'
  | 'putMember'
  | 'removeMember'
  | 'listRoles'
  | 'createRole'
  | 'setRoleApiKeyCells';

export function workspaceHandlers(deps: PartnerDeps): PartnerFeatureHandlers<WorkspaceOperationId> {
  const workspaces = new WorkspaceService(deps);
  return {
    async listPlans(_input, ctx) {
      userOf(ctx);
      return { status: 200, body: listOf(plans.map(planView)) };
    },
    async createWorkspace({ body }, ctx) {
      const workspace = await workspaces.create(userOf(ctx), body.name);
      return { status: 201, body: workspace, location: `/api/v1/workspaces/${workspace.id}` };
    },
    async listWorkspaces({ query }, ctx) {
      return { status: 200, body: await workspaces.list(userOf(ctx), query ?? {}) };
    },
    async getWorkspace({ params }, ctx) {
      return { status: 200, body: await workspaces.get(userOf(ctx), params.workspace_id) };
    },
    async setWorkspacePlan({ params, body }, ctx) {
      return { status: 200, body: await workspaces.setPlan(userOf(ctx), params.workspace_id, body.plan) };
    },
    async listMembers({ params, query }, ctx) {
      return { status: 200, body: await workspaces.listMembers(userOf(ctx), params.workspace_id, query ?? {}) };
    },
    async putMember({ params, body }, ctx) {
      return { status: 200, body: await workspaces.putMember(userOf(ctx), params.workspace_id, params.account_id, body.role) };
    },
    async removeMember({ params }, ctx) {
      await workspaces.removeMember(userOf(ctx), params.workspace_id, params.account_id);
      return { status: 204, body: undefined };
    },
    async listRoles({ params }, ctx) {
      return { status: 200, body: await workspaces.listRoles(userOf(ctx), params.workspace_id) };
    },
    async createRole({ params, body }, ctx) {
      const role = await workspaces.createRole(userOf(ctx), params.workspace_id, body.name, body.api_keys);
      // There is no operation on one role: the Location is the list that shows it.
      return { status: 201, body: role, location: `/api/v1/workspaces/${params.workspace_id}/roles` };
    },
    async setRoleApiKeyCells({ params, body }, ctx) {
      return { status: 200, body: await workspaces.setRoleCells(userOf(ctx), params.workspace_id, params.role, body) };
    },
  };
}
