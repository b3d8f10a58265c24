// Key validation, second step of the gate: one indexed lookup of the key's hash joined with its workspace's plan,
// served from the node's GateKeyCache while warm (a revocation or plan change empties it on every node before it is
// answered, so a revoked key dies on the very next request on every node); expiry is compared with the clock each time.
import type { Clock } from '../../platform/clock.js';
import type { GateKeyCache } from '../../platform/gate-key-cache.js';
import type { SqlPool } from '../../platform/db/sql.js';
import { hashKey, looksLikeKey, type KeyEnvironment } from '../api-keys/secret.js';
import type { KeyPrincipal } from '../base/context.js';
import { partnerErrors } from '../base/errors.js';
import { hasExternalApi } from '../workspaces/plans.js';
import { keyByHash, type GateKeyRow } from './queries.js';

export class KeyLookup {
  constructor(
    private readonly sql: SqlPool,
    private readonly clock: Clock,
    private readonly cache?: GateKeyCache,
  ) {}

  async authenticate(key: string | undefined): Promise<KeyPrincipal> {
    if (key === undefined || key === '') throw partnerErrors.apiKeyMissing();
    if (!looksLikeKey(key)) throw partnerErrors.invalidApiKey();
    const hash = hashKey(key);
    const row = this.cache ? await this.cache.get(`a:${hash.toString('base64')}`, () => this.load(hash)) : await this.load(hash);
    if (!row || row.status !== 'active') throw partnerErrors.invalidApiKey();
    if (row.expires_at && row.expires_at.getTime() <= this.clock.now().getTime()) throw partnerErrors.invalidApiKey();
    if (!hasExternalApi(row.plan)) throw partnerErrors.externalApiDisabled();
    // The column's check constraint holds it to live, test or dev.
    const environment = row.environment as KeyEnvironment;
    return { keyId: row.id, workspaceId: row.workspace_id, environment, prefix: row.prefix, scopes: row.scopes };
  }

  private load(hash: Buffer): Promise<GateKeyRow | undefined> {
    return keyByHash(this.sql, hash);
  }
}
