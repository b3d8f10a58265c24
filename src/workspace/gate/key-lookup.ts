// Key validation: one indexed lookup of the key's SHA-256 joined with its workspace's plan, served from the node's
// GateKeyCache while warm (a revocation or plan change empties it on every node before it is answered), so a revoked
// key is refused on the very next request on every node and an expired one from the instant it expires (the clock
// decides on every request; no sweeper).
import type { Clock } from '../../platform/clock.js';
import type { GateKeyCache } from '../../platform/gate-key-cache.js';
import type { SqlPool } from '../../platform/db/sql.js';
import { limitsOf, type RateLimits } from '../base/plans.js';
import { hashKey, looksLikeKey, type KeyEnvironment } from '../base/key-secret.js';
import { keyByHash, type GateKeyRow } from './queries.js';

export interface FoundKey {
  keyId: string;
  workspaceId: string;
  environment: KeyEnvironment;
  scopes: string[];
  ipAllowList: string[];
  limits: RateLimits;
  /** False when revoked or expired: the request is refused, but it is still a request made with this key. */
  usable: boolean;
}

export class KeyLookup {
  constructor(
    private readonly sql: SqlPool,
    private readonly clock: Clock,
    private readonly cache?: GateKeyCache,
  ) {}

  /** The key's row, or null when the text is not a key of any workspace. */
  async find(key: string): Promise<FoundKey | null> {
    if (!looksLikeKey(key)) return null;
    const hash = hashKey(key);
    const row = this.cache ? await this.cache.get(`b:${hash.toString('base64')}`, () => this.load(hash)) : await this.load(hash);
    if (!row) return null;
    const expired = row.expires_at !== null && row.expires_at.getTime() <= this.clock.now().getTime();
    return {
      keyId: row.id,
      workspaceId: row.workspace_id,
      environment: row.environment as KeyEnvironment,
      scopes: row.scopes as string[],
      ipAllowList: row.ip_allow_list as string[],
      limits: limitsOf(row.svc_plan, row.svc_rate_per_hour, row.svc_rate_per_minute),
      usable: row.revoked_at === null && !expired,
    };
  }

  private load(hash: Buffer): Promise<GateKeyRow | undefined> {
    return keyByHash(this.sql, hash);
  }
}
