// Key validation, second step of the gate: one indexed lookup of the key's hash joined with its workspace's plan,
// on every request, so that a revoked or expired key dies on the very next request on every node.
import type { Clock } from '../../platform/clock.js';
import type { SqlPool } from '../../platform/db/sql.js';
import { hashKey, looksLikeKey, type KeyEnvironment } from '../api-keys/secret.js';
import type { KeyPrincipal } from '../context.js';
import { partnerErrors } from '../errors.js';
import { hasExternalApi } from '../workspaces/plans.js';

interface KeyRow {
  id: string;
  workspace_id: string;
  environment: KeyEnvironment;
  prefix: string;
  scopes: string[];
  status: string;
  expires_at: Date | null;
  plan: string;
}

export class KeyLookup {
  constructor(private readonly sql: SqlPool, private readonly clock: Clock) {}

  async authenticate(key: string | undefined): Promise<KeyPrincipal> {
    if (key === undefined || key === '') throw partnerErrors.apiKeyMissing();
    if (!looksLikeKey(key)) throw partnerErrors.invalidApiKey();
    const { rows } = await this.sql.query<KeyRow>(
      `select k.id, k.workspace_id, k.environment, k.prefix, k.scopes, k.status, k.expires_at, w.plan
         from api_keys k join workspaces w on w.id = k.workspace_id
        where k.key_hash = $1`,
      [hashKey(key)],
    );
    const row = rows[0];
    if (!row || row.status !== 'active') throw partnerErrors.invalidApiKey();
    if (row.expires_at && row.expires_at.getTime() <= this.clock.now().getTime()) throw partnerErrors.invalidApiKey();
    if (!hasExternalApi(row.plan)) throw partnerErrors.externalApiDisabled();
    return { keyId: row.id, workspaceId: row.workspace_id, environment: row.environment, prefix: row.prefix, scopes: row.scopes };
  }
}
