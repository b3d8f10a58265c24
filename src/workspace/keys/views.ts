// Rows of svc_keys and their wire shape. The secret is never part of a row: only its hash is stored. Expired is
// computed from the clock at read time.
import type { Selectable } from 'kysely';
import type { components } from '../../../generated/types/workspace.js';
import type { WorkspaceTables } from '../base/tables.js';
import type { KeyEnvironment } from '../base/key-secret.js';

type Scope = components['schemas']['Scope'];

export type KeyStatus = 'Active' | 'Revoked' | 'Expired';

export const svcKeyColumns = [
  'id',
  'workspace_id',
  'name',
  'description',
  'prefix',
  'last_four',
  'environment',
  'scopes',
  'ip_allow_list',
  'expires_at',
  'created_by',
  'created_at',
  'last_used_at',
  'revoked_at',
] as const;
export type SvcKeyRow = Pick<Selectable<WorkspaceTables['svc_keys']>, (typeof svcKeyColumns)[number]>;

export function statusOf(row: Pick<SvcKeyRow, 'revoked_at' | 'expires_at'>, now: Date): KeyStatus {
  if (row.revoked_at !== null) return 'Revoked';
  if (row.expires_at !== null && row.expires_at.getTime() <= now.getTime()) return 'Expired';
  return 'Active';
}

export type SvcKeyView = ReturnType<typeof svcKeyView>;

export function svcKeyView(row: SvcKeyRow, now: Date) {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    name: row.name,
    description: row.description,
    prefix: row.prefix,
    last_four: row.last_four,
    environment: row.environment as KeyEnvironment,
    // Only catalogue scopes are ever stored (issueSvcKey checks them).
    scopes: [...(row.scopes as string[])] as Scope[],
    ip_allow_list: [...(row.ip_allow_list as string[])],
    expires_at: row.expires_at?.toISOString() ?? null,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    last_used_at: row.last_used_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
    status: statusOf(row, now),
  };
}
