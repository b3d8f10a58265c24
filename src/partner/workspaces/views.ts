// Rows of workspaces, members and roles, and their wire shapes; plus the list envelope every partner list uses.
import type { Selectable } from 'kysely';
import type { WorkspaceRow } from '../../core/workspaces/membership.js';
import type { PartnerTables } from '../base/tables.js';
import { hasExternalApi, type PlanInfo } from './plans.js';
import { lockedRoles, isBuiltInRole, type Cells } from './permissions.js';

export type { WorkspaceRow };

/** A member as the member statements select it: its row, and its account's display name. */
export type MemberRow = Pick<Selectable<PartnerTables['workspace_members']>, 'account_id' | 'role' | 'added_at'> & { display_name: string };

export interface ListEnvelope<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export function listOf<T>(data: T[], hasMore = false, nextCursor: string | null = null): ListEnvelope<T> {
  return { object: 'list', data, has_more: hasMore, next_cursor: hasMore ? nextCursor : null };
}

export function planView(plan: PlanInfo) {
  return { object: 'plan' as const, id: plan.id, name: plan.name, modules: [...plan.modules], external_api: hasExternalApi(plan.id) };
}

export function workspaceView(row: WorkspaceRow) {
  return {
    object: 'workspace' as const,
    id: row.id,
    name: row.name,
    plan: row.plan,
    external_api_enabled: hasExternalApi(row.plan),
    owner_id: row.owner_id,
    my_role: row.my_role,
    created_at: row.created_at.toISOString(),
  };
}

export function memberView(row: MemberRow) {
  return {
    object: 'workspace_member' as const,
    account_id: row.account_id,
    display_name: row.display_name,
    role: row.role,
    added_at: row.added_at.toISOString(),
  };
}

export function roleView(name: string, cells: Cells) {
  return { object: 'role' as const, id: name, built_in: isBuiltInRole(name), api_keys: { ...cells }, locked: lockedRoles.includes(name) };
}
