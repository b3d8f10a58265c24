// Who administers a workspace's keys and webhooks and reads its audit log: its Owner and Admin (workspace_members.role owner or
// admin, the partner API's tables and membership lookup). Every other member is a Member: 403, and nothing of the
// keys is shown. Non-members get 404, as if the workspace did not exist.
import type { Caller } from '../../core/auth/caller.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { loadMemberWorkspace, type WorkspaceRow } from '../../core/workspaces/membership.js';
import { WorkspaceAppError, workspaceErrors } from '../base/errors.js';

const administeringRoles = ['owner', 'admin'];

const membershipRefusals = {
  notFound: () => new WorkspaceAppError(404, 'not_found', 'The workspace was not found.'),
  notMember: () => new WorkspaceAppError(403, 'forbidden', 'Your role in this workspace lacks the workspace.member permission.'),
};

/** The workspace, when the caller is its Owner or Admin; `refusal` words the 403 for what is being administered. */
export async function requireOwnerOrAdmin(
  db: Queryable,
  caller: Caller,
  workspaceId: string,
  refusal: () => Error = workspaceErrors.ownerOrAdminOnly,
): Promise<WorkspaceRow> {
  const workspace = await loadMemberWorkspace(db, workspaceId, caller, membershipRefusals);
  if (workspace.my_role === null || !administeringRoles.includes(workspace.my_role)) throw refusal();
  return workspace;
}
