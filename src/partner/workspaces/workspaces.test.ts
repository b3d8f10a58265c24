// Workspace administration over the real partner listener: plans, workspaces and their plan, members, roles and
// the API Keys cells of each role, with the dated Staff rule tested on both sides of 2026-09-14 (UTC).
import { count } from '../../../test/helpers/expect.js';
import { expectPartnerError } from '../../../test/helpers/partner-expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';
import { ManualClock } from '../../platform/clock.js';
import { newId } from '../../platform/ids.js';
import { cursorParam, nextCursorWhileMore, walkPages } from '../../../test/helpers/paging.js';

let platform: TestPlatform;
let base: string;
let tenant: TestTenant;
const clock = new ManualClock();

const beforeWithdrawal = new Date('2026-09-13T23:59:00Z');
const afterWithdrawal = new Date('2026-09-14T00:00:00Z');

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['partner'] }, clock);
  base = platform.partnerUrl;
  tenant = await platform.tenant();
});
afterAll(async () => {
  await platform.stop();
});
beforeEach(() => clock.set(new Date()));

const as = (who: TestAccount | string, method: string, path: string, body?: unknown) =>
  call(base, method, path, { token: typeof who === 'string' ? who : who.token, body });

async function newWorkspace(owner: TestAccount, name = 'Acme'): Promise<string> {
  const res = await as(owner, 'POST', '/api/v1/workspaces', { name });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function addMember(owner: TestAccount, ws: string, role: string): Promise<TestAccount> {
  const account = await tenant.account();
  const res = await as(owner, 'PUT', `/api/v1/workspaces/${ws}/members/${account.id}`, { role });
  expect(res.status).toBe(200);
  return account;
}

describe('plans', () => {
  test('the catalogue is a list envelope; external_api follows the api_keys or webhooks module', async () => {
    const me = await tenant.account();
    const res = await as(me, 'GET', '/api/v1/plans');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    const byId = Object.fromEntries(res.body.data.map((p: { id: string }) => [p.id, p]));
    expect(Object.keys(byId).sort()).toEqual(['business', 'enterprise', 'free', 'team']);
    expect(byId.free).toEqual({ object: 'plan', id: 'free', name: 'Free', modules: [], external_api: false });
    expect(byId.team.external_api).toBe(true);
    expect(byId.team.modules).toContain('webhooks');
    expect(byId.team.modules).not.toContain('api_keys');
    expect(byId.business.external_api).toBe(true);
  });

  test('without a bearer token: 401', async () => {
    expect((await call(base, 'GET', '/api/v1/plans')).status).toBe(401);
  });
});

describe('workspaces', () => {
  test('create: 201, Location, free plan, the caller is the owner member', async () => {
    const me = await tenant.account();
    const res = await as(me, 'POST', '/api/v1/workspaces', { name: 'Acme Sales' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(`/api/v1/workspaces/${res.body.id}`);
    expect(res.body).toEqual({
      object: 'workspace',
      id: expect.any(String),
      name: 'Acme Sales',
      plan: 'free',
      external_api_enabled: false,
      owner_id: me.id,
      my_role: 'owner',
      created_at: clock.now().toISOString(),
    });
    const { rows } = await platform.db.query('select account_id, role from workspace_members where workspace_id = $1', [res.body.id]);
    expect(rows).toEqual([{ account_id: me.id, role: 'owner' }]);
    expect((await as(me, 'GET', `/api/v1/workspaces/${res.body.id}`)).body).toEqual(res.body);
  });

  test('list: the caller memberships only, newest first, keyset pages', async () => {
    const me = await tenant.account();
    const other = await tenant.account();
    const foreign = await newWorkspace(other, 'not mine');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await newWorkspace(me, `ws ${i}`));
      clock.advance(1000);
    }
    // A membership given by someone else counts too.
    await as(other, 'PUT', `/api/v1/workspaces/${foreign}/members/${me.id}`, { role: 'staff' });
    const pages = await walkPages(
      async (cursor) => {
        const res = await as(me, 'GET', `/api/v1/workspaces?limit=2${cursorParam(cursor, false)}`);
        expect(res.status).toBe(200);
        expect(res.body.object).toBe('list');
        expect(res.body.data.length).toBeLessThanOrEqual(2);
        return res;
      },
      nextCursorWhileMore,
      10,
    );
    expect(pages).toHaveLength(3);
    // The walk ends on the page without more, and that page names no next cursor.
    expect(pages.at(-1)!.body).toMatchObject({ has_more: false, next_cursor: null });
    const seen: string[] = pages.flatMap((res) => res.body.data.map((w: { id: string }) => w.id));
    // The foreign workspace was created first (oldest), the five later ones newest first.
    expect(seen).toEqual([...ids].reverse().concat(foreign));
    const all = await as(me, 'GET', '/api/v1/workspaces');
    expect(all.body.data.find((w: { id: string }) => w.id === foreign).my_role).toBe('staff');
  });

  test('a malformed cursor: 400 bad_input', async () => {
    const me = await tenant.account();
    expectPartnerError(await as(me, 'GET', '/api/v1/workspaces?cursor=bm90LWEtY3Vyc29y'), 400, 'bad_input', { field: 'query.cursor' });
  });

  test('get: non-members 404 workspace_not_found, platform admins read it with my_role null', async () => {
    const owner = await tenant.account();
    const stranger = await tenant.account();
    const ws = await newWorkspace(owner);
    expectPartnerError(await as(stranger, 'GET', `/api/v1/workspaces/${ws}`), 404, 'workspace_not_found');
    expectPartnerError(await as(owner, 'GET', `/api/v1/workspaces/${newId()}`), 404, 'workspace_not_found');
    const admin = await as(await platform.adminToken(), 'GET', `/api/v1/workspaces/${ws}`);
    expect(admin.status).toBe(200);
    expect(admin.body).toMatchObject({ id: ws, owner_id: owner.id, my_role: null });
    // Acting in it takes membership: the admin knows it exists, so the refusal is 403, not 404.
    const members = await as(await platform.adminToken(), 'GET', `/api/v1/workspaces/${ws}/members`);
    expectPartnerError(members, 403, 'permission_denied', { permission: 'workspace.member' });
  });

  test('set plan: platform admins only; unknown plan 400 body.plan; the plan decides external_api_enabled', async () => {
    const owner = await tenant.account();
    const ws = await newWorkspace(owner);
    expectPartnerError(await as(owner, 'PUT', `/api/v1/workspaces/${ws}/plan`, { plan: 'business' }), 403, 'platform_admin_required');
    const admin = await platform.adminToken();
    expectPartnerError(await as(admin, 'PUT', `/api/v1/workspaces/${ws}/plan`, { plan: 'platinum' }), 400, 'bad_input', {
      field: 'body.plan',
    });
    expectPartnerError(await as(admin, 'PUT', `/api/v1/workspaces/${newId()}/plan`, { plan: 'team' }), 404, 'workspace_not_found');
    const res = await as(admin, 'PUT', `/api/v1/workspaces/${ws}/plan`, { plan: 'team' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ws, plan: 'team', external_api_enabled: true, my_role: null });
    expect((await as(owner, 'GET', `/api/v1/workspaces/${ws}`)).body).toMatchObject({
      plan: 'team',
      external_api_enabled: true,
      my_role: 'owner',
    });
  });
});

describe('members', () => {
  test('owner adds and re-roles members; any member lists them; non-members get 404', async () => {
    const owner = await tenant.account({ displayName: 'Olga Owner' });
    const ws = await newWorkspace(owner);
    const staff = await tenant.account({ displayName: 'Sam Staff' });
    expect((await as(owner, 'PUT', `/api/v1/workspaces/${ws}/members/${staff.id}`, { role: 'staff' })).status).toBe(200);
    const changed = await as(owner, 'PUT', `/api/v1/workspaces/${ws}/members/${staff.id}`, { role: 'manager' });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({
      object: 'workspace_member',
      account_id: staff.id,
      display_name: 'Sam Staff',
      role: 'manager',
      added_at: expect.any(String),
    });
    const list = await as(staff, 'GET', `/api/v1/workspaces/${ws}/members`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(
      list.body.data.map((m: { account_id: string; display_name: string; role: string }) => [m.account_id, m.display_name, m.role]).sort(),
    ).toEqual(
      [
        [owner.id, 'Olga Owner', 'owner'],
        [staff.id, 'Sam Staff', 'manager'],
      ].sort(),
    );
    expectPartnerError(await as(await tenant.account(), 'GET', `/api/v1/workspaces/${ws}/members`), 404, 'workspace_not_found');
  });

  test('members pages follow the cursor', async () => {
    const owner = await tenant.account();
    const ws = await newWorkspace(owner);
    const added: string[] = [owner.id];
    for (let i = 0; i < 4; i++) {
      clock.advance(1000);
      added.push((await addMember(owner, ws, 'staff')).id);
    }
    const pages = await walkPages(
      async (cursor) => {
        const res = await as(owner, 'GET', `/api/v1/workspaces/${ws}/members?limit=2${cursorParam(cursor, false)}`);
        expect(res.status).toBe(200);
        return res;
      },
      nextCursorWhileMore,
      10,
    );
    const seen: string[] = pages.flatMap((res) => res.body.data.map((m: { account_id: string }) => m.account_id));
    expect(seen).toEqual(added);
  });

  test('only owner and admin manage members: 403 permission_denied workspace.manage', async () => {
    const owner = await tenant.account();
    const ws = await newWorkspace(owner);
    const manager = await addMember(owner, ws, 'manager');
    const admin = await addMember(owner, ws, 'admin');
    const target = await tenant.account();
    expectPartnerError(
      await as(manager, 'PUT', `/api/v1/workspaces/${ws}/members/${target.id}`, { role: 'staff' }),
      403,
      'permission_denied',
      {
        permission: 'workspace.manage',
      },
    );
    expectPartnerError(await as(manager, 'DELETE', `/api/v1/workspaces/${ws}/members/${admin.id}`), 403, 'permission_denied', {
      permission: 'workspace.manage',
    });
    expect((await as(admin, 'PUT', `/api/v1/workspaces/${ws}/members/${target.id}`, { role: 'staff' })).status).toBe(200);
    expect(await count(platform.db, 'select count(*) as n from workspace_members where workspace_id = $1', [ws])).toBe(4);
  });

  test('the account must be an active account of the same module and customer: else 404 account_not_found', async () => {
    const owner = await tenant.account();
    const ws = await newWorkspace(owner);
    const elsewhere = await (await platform.tenant()).account();
    const sameModuleOtherCustomer = await (await platform.tenant({ moduleCode: tenant.moduleCode })).account();
    const deactivated = await tenant.account({ status: 'DEACTIVATED' });
    for (const id of [elsewhere.id, sameModuleOtherCustomer.id, deactivated.id, newId()]) {
      expectPartnerError(await as(owner, 'PUT', `/api/v1/workspaces/${ws}/members/${id}`, { role: 'staff' }), 404, 'account_not_found');
    }
    expect(await count(platform.db, 'select count(*) as n from workspace_members where workspace_id = $1', [ws])).toBe(1);
  });

  test('role must be admin, manager, staff or a custom role: else 400 bad_input body.role', async () => {
    const owner = await tenant.account();
    const ws = await newWorkspace(owner);
    const target = await tenant.account();
    expectPartnerError(await as(owner, 'PUT', `/api/v1/workspaces/${ws}/members/${target.id}`, { role: 'ghost' }), 400, 'bad_input', {
      field: 'body.role',
    });
    expect((await as(owner, 'POST', `/api/v1/workspaces/${ws}/roles`, { name: 'ghost' })).status).toBe(201);
    const res = await as(owner, 'PUT', `/api/v1/workspaces/${ws}/members/${target.id}`, { role: 'ghost' });
    expect(res.status).toBe(200);
    expect(res.body.role).toBe('ghost');
  });

  test('the owner is immutable: owner cannot be given, changed or removed (409 owner_immutable)', async () => {
    const owner = await tenant.account();
    const ws = await newWorkspace(owner);
    const admin = await addMember(owner, ws, 'admin');
    const target = await tenant.account();
    expectPartnerError(await as(owner, 'PUT', `/api/v1/workspaces/${ws}/members/${target.id}`, { role: 'owner' }), 409, 'owner_immutable');
    expectPartnerError(await as(admin, 'PUT', `/api/v1/workspaces/${ws}/members/${owner.id}`, { role: 'staff' }), 409, 'owner_immutable');
    expectPartnerError(await as(admin, 'DELETE', `/api/v1/workspaces/${ws}/members/${owner.id}`), 409, 'owner_immutable');
    expectPartnerError(await as(owner, 'DELETE', `/api/v1/workspaces/${ws}/members/${owner.id}`), 409, 'owner_immutable');
    const { rows } = await platform.db.query('select role from workspace_members where workspace_id = $1 and account_id = $2', [
      ws,
      owner.id,
    ]);
    expect(rows).toEqual([{ role: 'owner' }]);
  });

  test('remove: 204, the account loses access; a non-member 404 member_not_found', async () => {
    const owner = await tenant.account();
    const ws = await newWorkspace(owner);
    const staff = await addMember(owner, ws, 'staff');
    expect((await as(staff, 'GET', `/api/v1/workspaces/${ws}`)).status).toBe(200);
    const res = await as(owner, 'DELETE', `/api/v1/workspaces/${ws}/members/${staff.id}`);
    expect(res.status).toBe(204);
    expectPartnerError(await as(staff, 'GET', `/api/v1/workspaces/${ws}`), 404, 'workspace_not_found');
    expectPartnerError(await as(owner, 'DELETE', `/api/v1/workspaces/${ws}/members/${staff.id}`), 404, 'member_not_found');
  });
});

describe('roles and API Keys cells', () => {
  type RoleBody = { id: string; built_in: boolean; locked: boolean; api_keys: { view: boolean; create: boolean; delete: boolean } };
  const rolesOf = async (who: TestAccount, ws: string): Promise<Record<string, RoleBody>> => {
    const res = await as(who, 'GET', `/api/v1/workspaces/${ws}/roles`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    return Object.fromEntries(res.body.data.map((r: RoleBody) => [r.id, r]));
  };

  test('built-in roles with their defaults; Staff has Create before 2026-09-14 and not from it', async () => {
    const owner = await tenant.account();
    const ws = await newWorkspace(owner);
    clock.set(beforeWithdrawal);
    const before = await rolesOf(owner, ws);
    expect(Object.keys(before)).toEqual(['owner', 'admin', 'manager', 'staff']);
    expect(before.owner).toEqual({
      object: 'role',
      id: 'owner',
      built_in: true,
      locked: true,
      api_keys: { view: true, create: true, delete: true },
    });
    expect(before.admin).toMatchObject({ locked: true, api_keys: { view: true, create: true, delete: true } });
    expect(before.manager).toMatchObject({ locked: false, api_keys: { view: true, create: true, delete: true } });
    expect(before.staff).toMatchObject({ locked: false, built_in: true, api_keys: { view: true, create: true, delete: false } });
    clock.set(afterWithdrawal);
    const after = await rolesOf(owner, ws);
    expect(after.staff!.api_keys).toEqual({ view: true, create: false, delete: false });
    expect(after.manager!.api_keys.create).toBe(true);
  });

  test('create a custom role: starts without cells, or with the given cells written to role_cells', async () => {
    const owner = await tenant.account();
    const ws = await newWorkspace(owner);
    const bare = await as(owner, 'POST', `/api/v1/workspaces/${ws}/roles`, { name: 'auditor' });
    expect(bare.status).toBe(201);
    expect(bare.headers.get('location')).toBe(`/api/v1/workspaces/${ws}/roles`);
    expect(bare.body).toEqual({
      object: 'role',
      id: 'auditor',
      built_in: false,
      locked: false,
      api_keys: { view: false, create: false, delete: false },
    });
    const withCells = await as(owner, 'POST', `/api/v1/workspaces/${ws}/roles`, {
      name: 'integrator',
      api_keys: { view: true, create: true, delete: false },
    });
    expect(withCells.status).toBe(201);
    expect(withCells.body.api_keys).toEqual({ view: true, create: true, delete: false });
    const { rows } = await platform.db.query('select cell, granted from role_cells where workspace_id = $1 and role = $2 order by cell', [
      ws,
      'integrator',
    ]);
    expect(rows).toEqual([
      { cell: 'api_keys.create', granted: true },
      { cell: 'api_keys.delete', granted: false },
      { cell: 'api_keys.view', granted: true },
    ]);
    const roles = await rolesOf(owner, ws);
    expect(Object.keys(roles)).toEqual(['owner', 'admin', 'manager', 'staff', 'auditor', 'integrator']);
    expect(roles.integrator!.api_keys).toEqual({ view: true, create: true, delete: false });
  });

  test('a built-in or existing name: 409 role_exists; only owner/admin create roles', async () => {
    const owner = await tenant.account();
    const ws = await newWorkspace(owner);
    const manager = await addMember(owner, ws, 'manager');
    expectPartnerError(await as(owner, 'POST', `/api/v1/workspaces/${ws}/roles`, { name: 'staff' }), 409, 'role_exists');
    expect((await as(owner, 'POST', `/api/v1/workspaces/${ws}/roles`, { name: 'support' })).status).toBe(201);
    expectPartnerError(await as(owner, 'POST', `/api/v1/workspaces/${ws}/roles`, { name: 'support' }), 409, 'role_exists');
    expectPartnerError(await as(manager, 'POST', `/api/v1/workspaces/${ws}/roles`, { name: 'other' }), 403, 'permission_denied', {
      permission: 'workspace.manage',
    });
    expect(await count(platform.db, 'select count(*) as n from workspace_roles where workspace_id = $1', [ws])).toBe(1);
  });

  test('set cells: owner and admin are locked (409), unknown roles 404, staff can be granted Create after the date', async () => {
    const owner = await tenant.account();
    const ws = await newWorkspace(owner);
    const admin = await addMember(owner, ws, 'admin');
    const all = { view: true, create: true, delete: true };
    expectPartnerError(await as(owner, 'PUT', `/api/v1/workspaces/${ws}/roles/owner/permissions/api_keys`, all), 409, 'role_locked');
    expectPartnerError(
      await as(owner, 'PUT', `/api/v1/workspaces/${ws}/roles/admin/permissions/api_keys`, { ...all, view: false }),
      409,
      'role_locked',
    );
    expectPartnerError(await as(owner, 'PUT', `/api/v1/workspaces/${ws}/roles/nobody/permissions/api_keys`, all), 404, 'role_not_found');
    clock.set(afterWithdrawal);
    const res = await as(admin, 'PUT', `/api/v1/workspaces/${ws}/roles/staff/permissions/api_keys`, {
      view: true,
      create: true,
      delete: false,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: 'staff', built_in: true, locked: false, api_keys: { view: true, create: true, delete: false } });
    expect(await count(platform.db, "select count(*) as n from role_cells where workspace_id = $1 and role = 'staff'", [ws])).toBe(3);
    expect((await rolesOf(owner, ws)).staff!.api_keys.create).toBe(true);
    // An explicit withdrawal overrides a default too.
    const manager = await as(owner, 'PUT', `/api/v1/workspaces/${ws}/roles/manager/permissions/api_keys`, {
      view: true,
      create: false,
      delete: false,
    });
    expect(manager.body.api_keys).toEqual({ view: true, create: false, delete: false });
    const staff = await addMember(owner, ws, 'staff');
    expectPartnerError(await as(staff, 'PUT', `/api/v1/workspaces/${ws}/roles/staff/permissions/api_keys`, all), 403, 'permission_denied', {
      permission: 'workspace.manage',
    });
  });
});
