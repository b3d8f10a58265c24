// Who may do what in a workspace: membership (non-members see 404, as if the workspace did not exist), the
// owner/admin gate of administration, and the effective API Keys cells of a role.
import type { Caller } from '../../core/auth/caller.js';
import { sql } from 'kysely';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { partnerErrors } from '../base/errors.js';
import { partnerDb } from '../base/tables.js';
import { effectiveCells, isBuiltInRole, type ApiKeyCell, type Cells } from './permissions.js';
import { loadMemberWorkspace, type WorkspaceRow } from '../../core/workspaces/membership.js';

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
  const found = await rows(
    db,
    partnerDb
      .selectFrom('role_cells')
      .select(['role', 'cell', 'granted'])
      .where('workspace_id', '=', workspaceId)
      .$if(role !== undefined, (qb) => qb.where('role', '=', role!)),
  );
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

/** Writes all three cells of a role explicitly, so later changes of the defaults no longer apply to it. */
export async function writeCells(db: Runner, workspaceId: string, role: string, cells: Cells, now: Date): Promise<void> {
  const granted = [cells.view, cells.create, cells.delete];
  const given = sql<{
    cell: string;
    granted: boolean;
  }>`unnest(array['api_keys.view', 'api_keys.create', 'api_keys.delete'], ${granted}::boolean[])`;
  await affected(
    db,
    partnerDb
      .insertInto('role_cells')
      .columns(['workspace_id', 'role', 'cell', 'granted', 'updated_at'])
      .expression((eb) =>
        eb
          .selectFrom(given.as<'c'>(sql`c(cell, granted)`))
          .select([eb.val(workspaceId).as('workspace_id'), eb.val(role).as('role'), 'c.cell', 'c.granted', eb.val(now).as('updated_at')]),
      )
      .onConflict((oc) =>
        oc
          .columns(['workspace_id', 'role', 'cell'])
          .doUpdateSet((eb) => ({ granted: eb.ref('excluded.granted'), updated_at: eb.ref('excluded.updated_at') })),
      ),
  );
}

export async function customRoleExists(db: Runner, workspaceId: string, name: string): Promise<boolean> {
  const found = await firstRow(
    db,
    partnerDb.selectFrom('workspace_roles').select('name').where('workspace_id', '=', workspaceId).where('name', '=', name),
  );
  return found !== undefined;
}

/** A built-in role or a custom role of the workspace. */
export async function roleExists(db: Runner, workspaceId: string, name: string): Promise<boolean> {
  return isBuiltInRole(name) || customRoleExists(db, workspaceId, name);
}
