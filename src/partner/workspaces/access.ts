// Who may do what in a workspace: membership (non-members see 404, as if the workspace did not exist), the
// owner/admin gate of administration, and the effective API Keys cells of a role.
import type { Caller } from '../../core/auth/caller.js';
import type { Runner } from '../../platform/db/typed.js';
import { partnerErrors } from '../base/errors.js';
import { effectiveCells, isBuiltInRole, type ApiKeyCell, type Cells } from './permissions.js';
import { loadMemberWorkspace, type WorkspaceRow } from '../../core/workspaces/membership.js';
import { customRoleExists, roleCellRows } from './queries.js';

/** Roles that administer a workspace: its members, roles and cells. */
export const managingRoles: readonly string[] = ['owner', 'admin'];

export const workspaceNotFound = () => partnerErrors.notFound('workspace_not_found', 'The workspace');

const membershipRefusals = { notFound: workspaceNotFound, notMember: () => partnerErrors.permissionDenied('workspace.member') };

/** The workspace with the caller's role, refused in the partner API's errors (see loadMemberWorkspace). */
export async function loadWorkspace(db: Runner, workspaceId: string, caller: Caller, platformAdminReads = false): Promise<WorkspaceRow> {
  return loadMemberWorkspace(db, workspaceId, caller, membershipRefusals, platformAdminReads);
}

export function requireManage(workspace: WorkspaceRow): void {
  if (workspace.my_role === null || !managingRoles.includes(workspace.my_role)) throw partnerErrors.permissionDenied('workspace.manage');
}

const cellNames: Record<string, ApiKeyCell> = { 'api_keys.view': 'view', 'api_keys.create': 'create', 'api_keys.delete': 'delete' };

/** The explicit cells an admin set for each role of the workspace (role_cells), by role. */
export async function cellOverrides(db: Runner, workspaceId: string, role?: string): Promise<Map<string, Partial<Cells>>> {
  const found = await roleCellRows(db, workspaceId, role);
  const byRole = new Map<string, Partial<Cells>>();
  for (const row of found) {
    const cell = cellNames[row.cell];
    if (!cell) continue;
    const cells = byRole.get(row.role) ?? {};
    cells[cell] = row.granted;
    byRole.set(row.role, cells);
  }
  return byRole;
}

/** A role's effective API Keys cells now: its explicit cells over its (possibly dated) defaults. */
export async function cellsOf(db: Runner, workspaceId: string, role: string, now: Date): Promise<Cells> {
  const overrides = await cellOverrides(db, workspaceId, role);
  return effectiveCells(role, overrides.get(role) ?? {}, now);
}

/** A built-in role or a custom role of the workspace. */
export async function roleExists(db: Runner, workspaceId: string, name: string): Promise<boolean> {
  return isBuiltInRole(name) || customRoleExists(db, workspaceId, name);
}
