// Rows of api_keys and their wire shape. The secret is never part of a row: only its hash is stored.
import { scopeLabels } from '../scopes/catalogue.js';
import type { KeyEnvironment } from './secret.js';

export interface ApiKeyRow {
  id: string;
  workspace_id: string;
  name: string;
  prefix: string;
  environment: KeyEnvironment;
  scopes: string[];
  status: 'active' | 'revoked';
  created_at: Date;
  created_by: string | null;
  last_used_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
}

export const apiKeyColumns =
  'id, workspace_id, name, prefix, environment, scopes, status, created_at, created_by, last_used_at, expires_at, revoked_at';

export type ApiKeyView = ReturnType<typeof apiKeyView>;

/** `now` decides `expired`: an expired key may still read active. */
export function apiKeyView(row: ApiKeyRow, now: Date) {
  return {
    object: 'api_key' as const,
    id: row.id,
    workspace_id: row.workspace_id,
    name: row.name,
    prefix: row.prefix,
    environment: row.environment,
    scopes: [...row.scopes],
    scope_labels: scopeLabels(row.scopes),
    status: row.status,
    expired: row.expires_at !== null && row.expires_at.getTime() <= now.getTime(),
    created_at: row.created_at.toISOString(),
    created_by: row.created_by,
    last_used_at: row.last_used_at?.toISOString() ?? null,
    expires_at: row.expires_at?.toISOString() ?? null,
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}
