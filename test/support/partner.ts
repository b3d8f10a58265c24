// Partner fixtures written straight to the database: a workspace on a plan and keys for it, so that tests of one
// feature do not depend on the administration endpoints of another.
import { randomUUID } from 'node:crypto';
import { newSecret, type KeyEnvironment } from '../../src/partner/api-keys/secret.js';
import { newId } from '../../src/platform/ids.js';
import type { TestAccount, TestPlatform } from './platform.js';

export interface TestWorkspace {
  id: string;
  owner: TestAccount;
  /** Issues an active key of this workspace and returns the full secret. */
  key(scopes: string[], options?: { environment?: KeyEnvironment; expiresAt?: Date; name?: string }): Promise<TestKey>;
}

export interface TestKey {
  id: string;
  key: string;
  prefix: string;
}

/** A workspace owned by a fresh account, on the given plan (default business: external API enabled). */
export async function testWorkspace(platform: TestPlatform, options: { plan?: string; owner?: TestAccount } = {}): Promise<TestWorkspace> {
  const owner = options.owner ?? (await (await platform.tenant()).account());
  const id = newId();
  await platform.db.query('insert into workspaces (id, name, plan, owner_id) values ($1, $2, $3, $4)', [
    id,
    `ws-${randomUUID().slice(0, 8)}`,
    options.plan ?? 'business',
    owner.id,
  ]);
  await platform.db.query("insert into workspace_members (workspace_id, account_id, role) values ($1, $2, 'owner')", [id, owner.id]);
  return {
    id,
    owner,
    key: (scopes, o = {}) => partnerKey(platform, id, scopes, { createdBy: owner.id, ...o }),
  };
}

/** Issues an active partner key of a workspace and returns the full secret (createdBy null: made by the command line). */
export async function partnerKey(
  platform: TestPlatform,
  workspaceId: string,
  scopes: string[],
  o: { environment?: KeyEnvironment; expiresAt?: Date; name?: string; createdBy?: string | null } = {},
): Promise<TestKey> {
  const secret = newSecret(o.environment ?? 'live');
  const keyId = newId();
  await platform.db.query(
    `insert into api_keys (id, workspace_id, name, prefix, key_hash, environment, scopes, status, created_by, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, 'active', $8, $9)`,
    [
      keyId,
      workspaceId,
      o.name ?? 'test key',
      secret.prefix,
      secret.hash,
      o.environment ?? 'live',
      scopes,
      o.createdBy ?? null,
      o.expiresAt ?? null,
    ],
  );
  return { id: keyId, key: secret.key, prefix: secret.prefix };
}
