// Who administers a workspace's keys and reads its audit log: its Owner and Admin (workspace_members.role owner or
// admin, the partner API's tables and membership lookup). Every other member is a Member: 403, and nothing of the
// keys is shown. Non-members get 404, as if the workspace did not exist.
import type { Caller } from '../../chat/context.js';
import type { Queryable } from '../../partner/db.js';
import { loadWorkspace } from '../../partner/workspaces/access.js';
import type { WorkspaceRow } from '../../partner/workspaces/views.js';
import { workspaceErrors } from '../errors.js';

const administeringRoles = ['owner', 'admin'];

export async function requireOwnerOrAdmin(db: Queryable, caller: Caller, workspaceId: string): Promise<WorkspaceRow> {
  const workspace = await loadWorkspace(db, workspaceId, caller);
  if (workspace.my_role === null || !administeringRoles.includes(workspace.my_role)) throw workspaceErrors.ownerOrAdminOnly();
  return workspace;
}
