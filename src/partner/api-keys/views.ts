// Rows of api_keys and their wire shape. The secret is never part of a row: only its hash is stored.
import type { Selectable } from 'kysely';
import { scopeLabels } from '../scopes/catalogue.js';
import type { PartnerTables } from '../base/tables.js';
import type { KeyEnvironment } from './secret.js';

export const apiKeyColumns = [
  'id',
  'workspace_id',
  'name',
  'prefix',
  'environment',
  'scopes',
  'status',
  'created_at',
  'created_by',
  'last_used_at',
  'expires_at',
  'revoked_at',
] as const;

export type ApiKeyRow = Pick<Selectable<PartnerTables['api_keys']>, (typeof apiKeyColumns)[number]>;

export type ApiKeyView = ReturnType<typeof apiKeyView>;

/** `now` decides `expired`: an expired key may still read active. */
export function apiKeyView(row: ApiKeyRow, now: Date) {
  return {
    object: 'api_key' as const,
    id: row.id,
    workspace_id: row.workspace_id,
    name: row.name,
    prefix: row.prefix,
    // Both columns' check constraints hold them to these values.
    environment: row.environment as KeyEnvironment,
    scopes: [...row.scopes],
    scope_labels: scopeLabels(row.scopes),
    status: row.status as 'active' | 'revoked',
    expired: row.expires_at !== null && row.expires_at.getTime() <= now.getTime(),
    created_at: row.created_at.toISOString(),
    created_by: row.created_by,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    expires_at: row.expires_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}
