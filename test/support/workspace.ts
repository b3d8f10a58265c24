// Workspace API fixtures written straight to the database: a workspace on a convention-B plan (the partner
// workspace tables), members with roles, and svc_ keys issued by the same service the API uses.
import { issueSvcKey } from '../../src/workspace/keys/service.js';
import type { KeyEnvironment } from '../../src/workspace/base/key-secret.js';
import type { SvcPlan } from '../../src/workspace/base/plans.js';
import type { TestAccount, TestPlatform, TestTenant } from './platform.js';
import { testWorkspace } from './partner.js';

export interface SvcTestKey {
  id: string;
  key: string;
}

export interface SvcWorkspace {
  id: string;
  owner: TestAccount;
  tenant: TestTenant;
  /** A new account of the owner's tenant added with this role (admin, manager, staff or a custom role). */
  member(role: string): Promise<TestAccount>;
  key(
    scopes: string[],
    options?: { environment?: KeyEnvironment; ipAllowList?: string[]; expiresAt?: Date; name?: string },
  ): Promise<SvcTestKey>;
}

/**
 * A workspace owned by a fresh account, on a convention-B plan (default business: 10,000 an hour and 500 a minute,
 * enough for any test but the rate-limit ones).
 */
export async function svcWorkspace(
  platform: TestPlatform,
  options: { plan?: SvcPlan; perHour?: number; perMinute?: number } = {},
): Promise<SvcWorkspace> {
  const tenant = await platform.tenant();
  const owner = await tenant.account();
  const ws = await testWorkspace(platform, { owner });
  await platform.db.query('update workspaces set svc_plan = $2, svc_rate_per_hour = $3, svc_rate_per_minute = $4 where id = $1', [
    ws.id,
    options.plan ?? 'business',
    options.perHour ?? null,
    options.perMinute ?? null,
  ]);
  return {
    id: ws.id,
    owner,
    tenant,
    async member(role) {
      const account = await tenant.account();
      await platform.db.query('insert into workspace_members (workspace_id, account_id, role) values ($1, $2, $3)', [
        ws.id,
        account.id,
        role,
      ]);
      return account;
    },
    async key(scopes, o = {}) {
      const issued = await issueSvcKey(platform.db, {
        workspaceId: ws.id,
        name: o.name ?? 'test key',
        scopes,
        environment: o.environment,
        ipAllowList: o.ipAllowList,
        expiresAt: o.expiresAt,
        createdBy: owner.id,
      });
      return { id: issued.view.id, key: issued.key };
    },
  };
}
