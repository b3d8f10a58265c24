// Who may manage a workspace's keys: a member, of a workspace whose plan has external API access, whose role holds
// the operation's cell on the API Keys row. The plan is checked before the role: it refuses even the owner.
import type { Caller } from '../../core/auth/caller.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { partnerErrors } from '../base/errors.js';
import { grants } from '../scopes/catalogue.js';
import { cellsOf, loadWorkspace, managingRoles } from '../workspaces/access.js';
import type { ApiKeyCell } from '../workspaces/permissions.js';
import { hasExternalApi } from '../workspaces/plans.js';
import type { WorkspaceRow } from '../workspaces/views.js';

/** The workspace when the caller may use the cell; throws workspace_not_found, external_api_disabled or permission_denied. */
export async function requireKeyCell(
  db: Queryable,
  caller: Caller,
  workspaceId: string,
  cell: ApiKeyCell,
  now: Date,
): Promise<WorkspaceRow> {
  const workspace = await loadWorkspace(db, workspaceId, caller);
  if (!hasExternalApi(workspace.plan)) throw partnerErrors.externalApiDisabled();
  const cells = await cellsOf(db, workspaceId, workspace.my_role ?? '', now);
  if (!cells[cell]) throw partnerErrors.permissionDenied(`api_keys.${cell}`);
  return workspace;
}

/**
 * A key grants no more than its creator may do: only the Owner and Admin roles manage webhooks (in both conventions),
 * so only they may create a key that grants webhooks:manage (itself, through webhooks:* or a preset). The Manager role
 * and custom roles with the create cell create every other key. 403 permission_denied webhooks.manage otherwise.
 */
export function requireGrantable(workspace: WorkspaceRow, scopes: readonly string[]): void {
  const manages = workspace.my_role !== null && managingRoles.includes(workspace.my_role);
  if (grants(scopes, 'webhooks:manage') && !manages) throw partnerErrors.permissionDenied('webhooks.manage');
}
