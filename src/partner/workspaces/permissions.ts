// Roles and the API Keys row of the permission matrix. owner and admin hold every cell and cannot lose them;
// manager holds all three by default; staff views and, before 2026-09-14, creates; custom roles start with none.
// An admin's explicit grant or withdrawal of a cell (role_cells) overrides the default.

export type ApiKeyCell = 'view' | 'create' | 'delete';
export type Cells = Record<ApiKeyCell, boolean>;

export const builtInRoles = ['owner', 'admin', 'manager', 'staff'] as const;
export type BuiltInRole = (typeof builtInRoles)[number];

/** Roles whose cells are fixed. */
export const lockedRoles: readonly string[] = ['owner', 'admin'];

/** From this instant (2026-09-14 00:00 UTC) the built-in Staff role no longer has the Create cell by default. */
export const staffCreateWithdrawnAt = new Date(Date.UTC(2026, 8, 14));

export function isBuiltInRole(role: string): role is BuiltInRole {
  return (builtInRoles as readonly string[]).includes(role);
}

export function defaultCells(role: string, now: Date): Cells {
  switch (role) {
    case 'owner':
    case 'admin':
    case 'manager':
      return { view: true, create: true, delete: true };
    case 'staff':
      return { view: true, create: now.getTime() < staffCreateWithdrawnAt.getTime(), delete: false };
    default:
      return { view: false, create: false, delete: false };
  }
}

/** The cells a role has now: fixed for owner/admin, else each explicit override or the default. */
export function effectiveCells(role: string, overrides: Partial<Cells>, now: Date): Cells {
  const base = defaultCells(role, now);
  if (lockedRoles.includes(role)) return base;
  return {
    view: overrides.view ?? base.view,
    create: overrides.create ?? base.create,
    delete: overrides.delete ?? base.delete,
  };
}
