// Who may do what in a workspace: membership (non-members see 404, as if the workspace did not exist), the
// owner/admin gate of administration, and the effective API Keys cells of a role.
import type { Caller } from '../../core/auth/caller.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { partnerErrors } from '../errors.js';
import { effectiveCells, isBuiltInRole, type ApiKeyCell, type Cells } from './permissions.js';
import { loadMemberWorkspace, type WorkspaceRow } from '../../core/workspaces/membership.js';

/** Roles that administer a workspace: its members, roles and cells. */
const managingRoles = ['owner', 'admin'];

export const workspaceNotFound = () => partnerErrors.notFound('workspace_not_found', 'The workspace');

const membershipRefusals = { notFound: workspaceNotFound, notMember: () => partnerErrors.permissionDenied('workspace.member') };

/** The workspace with the caller's role, refused in the partner API's errors (see loadMemberWorkspace). */
export async function loadWorkspace(db: Queryable, workspaceId: string, caller: Caller, platformAdminReads = false): Promise<WorkspaceRow> {
  return loadMemberWorkspace(db, workspaceId, caller, membershipRefusals, platformAdminReads);
}

export function requireManage(workspace: WorkspaceRow): void {
  if (workspace.my_role === null || !managingRoles.includes(workspace.my_role)) throw partnerErrors.permissionDenied('workspace.manage');
}

const cellNames: Record<string, ApiKeyCell> = { 'api_keys.view': 'view', 'api_keys.create': 'create', 'api_keys.delete': 'delete' };

/** The explicit cells an admin set for each role of the workspace (role_cells), by role. */
export async function cellOverrides(db: Queryable, workspaceId: string, role?: string): Promise<Map<string, Partial<Cells>>> {
  const params: unknown[] = [workspaceId];
  let sql = 'select role, cell, granted from role_cells where workspace_id = $1';
  if (role !== undefined) {
    params.push(role);
    sql += ' and role = $2';
  }
  const { rows } = await db.query<{ role: string; cell: string; granted: boolean }>(sql, params);
  const byRole = new Map<string, Partial<Cells>>();
  for (const row of rows) {
    const cell = cellNames[row.cell];
    if (!cell) continue;
    const cells = byRole.get(row.role) ?? {};
    cells[cell] = row.granted;
    byRole.set(row.role, cells);
  }
  return byRole;
}

/** A role's effective API Keys cells now: its explicit cells over its (possibly dated) defaults. */
export async function cellsOf(db: Queryable, workspaceId: string, role: string, now: Date): Promise<Cells> {
  const overrides = await cellOverrides(db, workspaceId, role);
  return effectiveCells(role, overrides.get(role) ?? {}, now);
}

/** Writes all three cells of a role explicitly, so later changes of the defaults no longer apply to it. */
export async function writeCells(db: Queryable, workspaceId: string, role: string, cells: Cells, now: Date): Promise<void> {
  await db.query(
    `insert into role_cells (workspace_id, role, cell, granted, updated_at)
     select $1, $2, c.cell, c.granted, $4 from unnest(array['api_keys.view', 'api_keys.create', 'api_keys.delete'], $3::boolean[]) as c(cell, granted)
     on conflict (workspace_id, role, cell) do update set granted = excluded.granted, updated_at = excluded.updated_at`,
    [workspaceId, role, [cells.view, cells.create, cells.delete], now],
  );
}

export async function customRoleExists(db: Queryable, workspaceId: string, name: string): Promise<boolean> {
  const { rowCount } = await db.query('select 1 from workspace_roles where workspace_id = $1 and name = $2', [workspaceId, name]);
  return (rowCount ?? 0) > 0;
}

/** A built-in role or a custom role of the workspace. */
export async function roleExists(db: Queryable, workspaceId: string, name: string): Promise<boolean> {
  return isBuiltInRole(name) || customRoleExists(db, workspaceId, name);
}
