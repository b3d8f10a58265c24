// API key management over the real partner listener: issuing (the secret shown once, only its hash stored),
// listing, revoking, the plan's external API access, the role cells with the dated Staff rule, expiry, and a key
// managing itself.
import { createHash } from 'node:crypto';
import { count } from '../../../test/helpers/expect.js';
import { expectPartnerError, keyHeaders } from '../../../test/helpers/partner-expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';
import { testWorkspace, type TestWorkspace } from '../../../test/support/partner.js';
import { ManualClock } from '../../platform/clock.js';
import { newId } from '../../platform/ids.js';
import { issueApiKey } from './service.js';
import { cursorParam, nextCursorWhileMore, walkPages } from '../../../test/helpers/paging.js';

let platform: TestPlatform;
let base: string;
let tenant: TestTenant;
let ws: TestWorkspace;
const clock = new ManualClock();

const beforeWithdrawal = new Date('2026-09-13T23:59:00Z');
const afterWithdrawal = new Date('2026-09-14T00:00:00Z');

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['partner'] }, clock);
  base = platform.partnerUrl;
  tenant = await platform.tenant();
  ws = await testWorkspace(platform, { owner: await tenant.account() });
});
afterAll(async () => {
  await platform.stop();
});
beforeEach(() => clock.set(new Date()));

const as = (who: TestAccount, method: string, path: string, body?: unknown) => call(base, method, path, { token: who.token, body });
const keysPath = (workspaceId: string) => `/api/v1/workspaces/${workspaceId}/api-keys`;
const createKey = (who: TestAccount, body: Record<string, unknown>, workspaceId = ws.id) => as(who, 'POST', keysPath(workspaceId), body);
/** A call made with an API key on the key's own surface. */
const current = (key: string) => call(base, 'GET', '/api/v1/api-keys/current', { headers: keyHeaders(key) });

async function member(workspaceId: string, role: string): Promise<TestAccount> {
  const account = await tenant.account();
  await platform.db.query('insert into workspace_members (workspace_id, account_id, role) values ($1, $2, $3)', [
    workspaceId,
    account.id,
    role,
  ]);
  return account;
}

describe('create', () => {
  test('201 with the full key once and a Location; the row holds only its hash', async () => {
    const res = await createKey(ws.owner, {
      name: 'ERP sync',
      scopes: ['crm_leads:read', 'crm_deals:*', 'crm_leads:read', 'kb:read', 'messages:send'],
    });
    expect(res.status).toBe(201);
    const key = res.body;
    expect(res.headers.get('location')).toBe(`${keysPath(ws.id)}/${key.id}`);
    expect(key.key).toMatch(/^live_[A-Za-z0-9_-]{40}$/);
    expect(key).toEqual({
      object: 'api_key',
      id: expect.any(String),
      workspace_id: ws.id,
      name: 'ERP sync',
      prefix: key.key.slice(0, 8),
      environment: 'live',
      scopes: ['crm_leads:read', 'crm_deals:*', 'kb:read', 'messages:send'],
      scope_labels: ['crm_leads:read', 'crm_deals:*', 'kb:read', '+1'],
      status: 'active',
      expired: false,
      created_at: clock.now().toISOString(),
      created_by: ws.owner.id,
      last_used_at: null,
      expires_at: null,
      revoked_at: null,
      key: key.key,
    });
    const { rows } = await platform.db.query('select k.*, to_jsonb(k)::text as json from api_keys k where id = $1', [key.id]);
    const row = rows[0];
    expect(row.key_hash.equals(createHash('sha256').update(key.key).digest())).toBe(true);
    for (const value of Object.values(row)) expect(value).not.toEqual(key.key);
    expect(row.json).not.toContain(key.key);
    expect(row.json).not.toContain(key.key.slice(8));
  });

  test('the key is never shown again: neither get nor list carries it', async () => {
    const created = (await createKey(ws.owner, { name: 'once', scopes: ['kb:read'] })).body;
    const got = await as(ws.owner, 'GET', `${keysPath(ws.id)}/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.body).not.toHaveProperty('key');
    const { key: _key, ...view } = created;
    expect(got.body).toEqual(view);
    const list = await as(ws.owner, 'GET', keysPath(ws.id));
    const listed = list.body.data.find((k: { id: string }) => k.id === created.id);
    expect(listed).toEqual(view);
    expect(JSON.stringify(list.body)).not.toContain(created.key);
  });

  test('a created key works at once, and a prefix alone is refused with 401', async () => {
    const created = (await createKey(ws.owner, { name: 'works', scopes: ['crm_leads:read'] })).body;
    const me = await call(base, 'GET', '/api/v1/partner/crm/_me', { headers: keyHeaders(created.key) });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ object: 'crm.api_identity', key_prefix: created.prefix, scopes: ['crm_leads:read'] });
    const self = await current(created.key);
    expect(self.status).toBe(200);
    expect(self.body).toMatchObject({ id: created.id, prefix: created.prefix, status: 'active' });
    expect(self.body).not.toHaveProperty('key');
    expectPartnerError(await current(created.prefix), 401, 'invalid_api_key');
    expectPartnerError(await call(base, 'GET', '/api/v1/partner/crm/_me', { headers: keyHeaders(created.prefix) }), 401, 'invalid_api_key');
  });

  test('environment test and dev give test_ and dev_ keys', async () => {
    for (const environment of ['test', 'dev']) {
      const res = await createKey(ws.owner, { name: environment, scopes: ['kb:read'], environment });
      expect(res.status).toBe(201);
      expect(res.body.environment).toBe(environment);
      expect(res.body.key.startsWith(`${environment}_`)).toBe(true);
      expect(res.body.prefix).toBe(res.body.key.slice(0, 8));
      expect((await current(res.body.key)).body.environment).toBe(environment);
    }
  });

  test('a preset expands to its scopes', async () => {
    const res = await createKey(ws.owner, { name: 'sales', preset: 'CRM sales full' });
    expect(res.status).toBe(201);
    expect(res.body.scopes).toEqual(['crm_leads:*', 'crm_deals:*', 'crm_contacts:*', 'crm_companies:*', 'crm_activities:*']);
    expect(res.body.scope_labels).toEqual(['crm_leads:*', 'crm_deals:*', 'crm_contacts:*', '+2']);
  });

  test('scopes or preset, exactly one: both or neither 400; unknown preset or scope 400 naming the field', async () => {
    const before = await count(platform.db, 'select count(*) as n from api_keys where workspace_id = $1', [ws.id]);
    expectPartnerError(await createKey(ws.owner, { name: 'x', scopes: ['kb:read'], preset: 'KB read' }), 400, 'bad_input');
    expectPartnerError(await createKey(ws.owner, { name: 'x' }), 400, 'bad_input');
    expectPartnerError(await createKey(ws.owner, { name: 'x', preset: 'Everything' }), 400, 'bad_input', { field: 'body.preset' });
    const unknown = await createKey(ws.owner, { name: 'x', scopes: ['kb:read', 'payroll:read'] });
    expectPartnerError(unknown, 400, 'bad_input', { field: 'body.scopes' });
    expect(unknown.body.error.message).toContain('payroll:read');
    expectPartnerError(await createKey(ws.owner, { name: 'x', scopes: ['kb:*', 'crm_invoices:write'] }), 400, 'bad_input', {
      field: 'body.scopes',
    });
    expect(await count(platform.db, 'select count(*) as n from api_keys where workspace_id = $1', [ws.id])).toBe(before);
  });

  test('limits of the spec: name 1..100, scopes 1..20, expiry in the future', async () => {
    const scopes = ['kb:read'];
    expectPartnerError(await createKey(ws.owner, { name: '', scopes }), 400, 'bad_input');
    expectPartnerError(await createKey(ws.owner, { name: 'n'.repeat(101), scopes }), 400, 'bad_input');
    expect((await createKey(ws.owner, { name: 'n'.repeat(100), scopes })).status).toBe(201);
    expectPartnerError(await createKey(ws.owner, { name: 'x', scopes: [] }), 400, 'bad_input');
    const catalogue = [
      'conversations:read',
      'conversations:write',
      'messages:read',
      'messages:send',
      'channels:read',
      'channels:manage',
      'ai:read',
      'ai:invoke',
      'kb:read',
      'kb:write',
      'agents:read',
      'agents:manage',
      'webhooks:read',
      'webhooks:manage',
      'crm_leads:read',
      'crm_leads:write',
      'crm_deals:read',
      'crm_deals:write',
      'crm_contacts:read',
      'crm_contacts:write',
      'crm_companies:read',
    ];
    expectPartnerError(await createKey(ws.owner, { name: 'x', scopes: catalogue }), 400, 'bad_input');
    expect((await createKey(ws.owner, { name: 'x', scopes: catalogue.slice(0, 20) })).status).toBe(201);
    const past = new Date(clock.now().getTime() - 1000).toISOString();
    expectPartnerError(await createKey(ws.owner, { name: 'x', scopes, expires_at: past }), 400, 'bad_input', { field: 'body.expires_at' });
    expectPartnerError(await createKey(ws.owner, { name: 'x', scopes, expires_at: clock.now().toISOString() }), 400, 'bad_input', {
      field: 'body.expires_at',
    });
    expectPartnerError(await createKey(ws.owner, { name: 'x', scopes, environment: 'prod' }), 400, 'bad_input');
  });

  test('expires_at as a date: the key works to the end of that day (UTC), is dead from the next midnight', async () => {
    const day = new Date(clock.now().getTime() + 2 * 86_400_000).toISOString().slice(0, 10);
    const midnight = new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000);
    const created = (await createKey(ws.owner, { name: 'dated', scopes: ['kb:read'], expires_at: day })).body;
    expect(created.expires_at).toBe(midnight.toISOString());
    clock.set(new Date(midnight.getTime() - 1));
    expect((await current(created.key)).status).toBe(200);
    clock.set(midnight);
    expectPartnerError(await current(created.key), 401, 'invalid_api_key');
    const yesterday = new Date(clock.now().getTime() - 86_400_000).toISOString().slice(0, 10);
    for (const expires_at of ['2026-02-30', '2026-12-31T25:00:00Z', yesterday]) {
      expectPartnerError(await createKey(ws.owner, { name: 'x', scopes: ['kb:read'], expires_at }), 400, 'bad_input', {
        field: 'body.expires_at',
      });
    }
  });

  test('an expired key is refused with 401 and lists as expired', async () => {
    const expiresAt = new Date(clock.now().getTime() + 60_000);
    const created = (await createKey(ws.owner, { name: 'short', scopes: ['kb:read'], expires_at: expiresAt.toISOString() })).body;
    expect(created.expires_at).toBe(expiresAt.toISOString());
    expect(created.expired).toBe(false);
    expect((await current(created.key)).status).toBe(200);
    clock.advance(120_000);
    expectPartnerError(await current(created.key), 401, 'invalid_api_key');
    const got = await as(ws.owner, 'GET', `${keysPath(ws.id)}/${created.id}`);
    expect(got.body).toMatchObject({ status: 'active', expired: true });
  });

  test('the service issues keys for a CLI with the same rules; created_by may be null', async () => {
    const issued = await issueApiKey(
      platform.db,
      { workspaceId: ws.id, name: 'dev tool', scopes: ['crm_leads:*'], environment: 'dev', createdBy: null },
      clock,
    );
    expect(issued.key.startsWith('dev_')).toBe(true);
    expect(issued.view).toMatchObject({ workspace_id: ws.id, created_by: null, environment: 'dev', status: 'active' });
    expect((await current(issued.key)).body.id).toBe(issued.view.id);
    await expect(
      issueApiKey(platform.db, { workspaceId: ws.id, name: 'x', scopes: ['nope:read'], createdBy: null }, clock),
    ).rejects.toMatchObject({ code: 'bad_input' });
  });
});

describe('list and get', () => {
  test('newest first with keyset pages; a key of another workspace is 404 api_key_not_found', async () => {
    const own = await testWorkspace(platform, { owner: await tenant.account() });
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await createKey(own.owner, { name: `k${i}`, scopes: ['kb:read'] }, own.id)).body.id);
    const pages = await walkPages(
      async (cursor) => {
        const res = await as(own.owner, 'GET', `${keysPath(own.id)}?limit=2${cursorParam(cursor, false)}`);
        expect(res.status).toBe(200);
        expect(res.body.object).toBe('list');
        return res;
      },
      nextCursorWhileMore,
      10,
    );
    expect(pages).toHaveLength(3);
    // The walk ends on the page without more, and that page names no next cursor.
    expect(pages.at(-1)!.body).toMatchObject({ has_more: false, next_cursor: null });
    const seen: string[] = pages.flatMap((res) => res.body.data.map((k: { id: string }) => k.id));
    expect(seen).toEqual([...ids].reverse());
    expectPartnerError(await as(own.owner, 'GET', `${keysPath(own.id)}/${(await ws.key(['kb:read'])).id}`), 404, 'api_key_not_found');
    expectPartnerError(await as(own.owner, 'GET', `${keysPath(own.id)}/${newId()}`), 404, 'api_key_not_found');
    // The owner of the other workspace is not a member here.
    expectPartnerError(await as(ws.owner, 'GET', keysPath(own.id)), 404, 'workspace_not_found');
  });
});

describe('revoke', () => {
  test('needs confirm: true; revokes at once, keeps the row, records who; a second revoke is 409', async () => {
    const created = (await createKey(ws.owner, { name: 'to revoke', scopes: ['crm_leads:read'] })).body;
    const path = `${keysPath(ws.id)}/${created.id}/revoke`;
    expectPartnerError(await as(ws.owner, 'POST', path, { confirm: false }), 400, 'bad_input', { field: 'body.confirm' });
    expectPartnerError(await as(ws.owner, 'POST', path, {}), 400, 'bad_input');
    expect((await current(created.key)).status).toBe(200);
    clock.advance(5000);
    const res = await as(ws.owner, 'POST', path, { confirm: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, status: 'revoked', revoked_at: clock.now().toISOString() });
    expect(res.body).not.toHaveProperty('key');
    expectPartnerError(await current(created.key), 401, 'invalid_api_key');
    expectPartnerError(await call(base, 'GET', '/api/v1/partner/crm/_me', { headers: keyHeaders(created.key) }), 401, 'invalid_api_key');
    const { rows } = await platform.db.query('select status, revoked_by from api_keys where id = $1', [created.id]);
    expect(rows).toEqual([{ status: 'revoked', revoked_by: ws.owner.id }]);
    expectPartnerError(await as(ws.owner, 'POST', path, { confirm: true }), 409, 'api_key_already_revoked');
    expectPartnerError(await as(ws.owner, 'POST', `${keysPath(ws.id)}/${newId()}/revoke`, { confirm: true }), 404, 'api_key_not_found');
  });

  test('there is no DELETE: 405 and the row stays', async () => {
    const created = (await createKey(ws.owner, { name: 'kept', scopes: ['kb:read'] })).body;
    const res = await as(ws.owner, 'DELETE', `${keysPath(ws.id)}/${created.id}`);
    expect(res.status).toBe(405);
    expect(await count(platform.db, 'select count(*) as n from api_keys where id = $1', [created.id])).toBe(1);
  });
});

describe('external API access', () => {
  test('a free-plan workspace refuses every operation, even to the owner: list empty, create/get/revoke 403', async () => {
    const free = await testWorkspace(platform, { plan: 'free', owner: await tenant.account() });
    const existing = await free.key(['kb:read']);
    const list = await as(free.owner, 'GET', keysPath(free.id));
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
    const created = await createKey(free.owner, { name: 'x', scopes: ['kb:read'] }, free.id);
    expectPartnerError(created, 403, 'external_api_disabled');
    expect(created.body.error.message).toBe('External API access is not enabled for this organisation.');
    expectPartnerError(await as(free.owner, 'GET', `${keysPath(free.id)}/${existing.id}`), 403, 'external_api_disabled');
    expectPartnerError(
      await as(free.owner, 'POST', `${keysPath(free.id)}/${existing.id}/revoke`, { confirm: true }),
      403,
      'external_api_disabled',
    );
    expect(await count(platform.db, "select count(*) as n from api_keys where workspace_id = $1 and status = 'active'", [free.id])).toBe(1);
  });

  test('a team plan (webhooks module) enables key management', async () => {
    const team = await testWorkspace(platform, { plan: 'team', owner: await tenant.account() });
    expect((await createKey(team.owner, { name: 'hooks', scopes: ['webhooks:read'] }, team.id)).status).toBe(201);
  });

  test('non-members get 404 workspace_not_found', async () => {
    expectPartnerError(await createKey(await tenant.account(), { name: 'x', scopes: ['kb:read'] }), 404, 'workspace_not_found');
  });
});

describe('role cells', () => {
  test('Staff can create before 2026-09-14 and cannot from it; an admin-granted Create cell works after it', async () => {
    const staffWs = await testWorkspace(platform, { owner: await tenant.account() });
    const staff = await member(staffWs.id, 'staff');
    const admin = await member(staffWs.id, 'admin');
    clock.set(beforeWithdrawal);
    expect((await createKey(staff, { name: 'before', scopes: ['kb:read'] }, staffWs.id)).status).toBe(201);
    clock.set(afterWithdrawal);
    expectPartnerError(await createKey(staff, { name: 'after', scopes: ['kb:read'] }, staffWs.id), 403, 'permission_denied', {
      permission: 'api_keys.create',
    });
    // Staff still views the keys.
    expect((await as(staff, 'GET', keysPath(staffWs.id))).body.data.map((k: { name: string }) => k.name)).toEqual(['before']);
    const grant = await as(admin, 'PUT', `/api/v1/workspaces/${staffWs.id}/roles/staff/permissions/api_keys`, {
      view: true,
      create: true,
      delete: false,
    });
    expect(grant.status).toBe(200);
    expect((await createKey(staff, { name: 'granted', scopes: ['kb:read'] }, staffWs.id)).status).toBe(201);
  });

  test('manager creates and revokes; staff cannot revoke (api_keys.delete)', async () => {
    const manager = await member(ws.id, 'manager');
    const staff = await member(ws.id, 'staff');
    const created = await createKey(manager, { name: 'by manager', scopes: ['kb:read'] });
    expect(created.status).toBe(201);
    expect(created.body.created_by).toBe(manager.id);
    expectPartnerError(
      await as(staff, 'POST', `${keysPath(ws.id)}/${created.body.id}/revoke`, { confirm: true }),
      403,
      'permission_denied',
      {
        permission: 'api_keys.delete',
      },
    );
    expect((await as(manager, 'POST', `${keysPath(ws.id)}/${created.body.id}/revoke`, { confirm: true })).status).toBe(200);
  });

  test('only the Owner and Admin roles create keys that manage webhooks; a Manager is refused and nothing is stored', async () => {
    const manager = await member(ws.id, 'manager');
    const admin = await member(ws.id, 'admin');
    const before = (await platform.db.query('select count(*)::int as n from api_keys where workspace_id = $1', [ws.id])).rows[0].n;
    for (const scopes of [['webhooks:manage'], ['webhooks:*'], ['kb:read', 'webhooks:manage']]) {
      expectPartnerError(await createKey(manager, { name: 'hooks', scopes }), 403, 'permission_denied', { permission: 'webhooks.manage' });
    }
    const after = (await platform.db.query('select count(*)::int as n from api_keys where workspace_id = $1', [ws.id])).rows[0].n;
    expect(after).toBe(before);
    expect((await createKey(manager, { name: 'read hooks', scopes: ['webhooks:read'] })).status).toBe(201);
    expect((await createKey(manager, { name: 'read preset', preset: 'Webhooks read' })).status).toBe(201);
    expect((await createKey(admin, { name: 'hooks by admin', scopes: ['webhooks:manage'] })).status).toBe(201);
  });

  test('a custom role without cells cannot view, get or create', async () => {
    await platform.db.query('insert into workspace_roles (workspace_id, name) values ($1, $2) on conflict do nothing', [
      ws.id,
      'viewerless',
    ]);
    const custom = await member(ws.id, 'viewerless');
    const existing = await ws.key(['kb:read']);
    expectPartnerError(await as(custom, 'GET', keysPath(ws.id)), 403, 'permission_denied', { permission: 'api_keys.view' });
    expectPartnerError(await as(custom, 'GET', `${keysPath(ws.id)}/${existing.id}`), 403, 'permission_denied', {
      permission: 'api_keys.view',
    });
    expectPartnerError(await createKey(custom, { name: 'x', scopes: ['kb:read'] }), 403, 'permission_denied', {
      permission: 'api_keys.create',
    });
  });
});

describe('a key managing itself', () => {
  test('get current: the calling key without its secret', async () => {
    const issued = await ws.key(['crm_leads:read', 'crm_deals:read']);
    const res = await current(issued.key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      object: 'api_key',
      id: issued.id,
      workspace_id: ws.id,
      prefix: issued.prefix,
      status: 'active',
      scopes: ['crm_leads:read', 'crm_deals:read'],
    });
    expect(res.body).not.toHaveProperty('key');
  });

  test('revoke current: confirm required; revokes itself with revoked_by null; the key dies', async () => {
    const issued = await ws.key(['kb:read']);
    const revoke = (confirm: boolean, idem: string) =>
      call(base, 'POST', '/api/v1/api-keys/current/revoke', { headers: keyHeaders(issued.key, idem), body: { confirm } });
    expectPartnerError(await revoke(false, `no-${newId()}`), 400, 'bad_input', { field: 'body.confirm' });
    expect((await current(issued.key)).status).toBe(200);
    const res = await revoke(true, `yes-${newId()}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: issued.id, status: 'revoked', revoked_at: clock.now().toISOString() });
    const { rows } = await platform.db.query('select status, revoked_by from api_keys where id = $1', [issued.id]);
    expect(rows).toEqual([{ status: 'revoked', revoked_by: null }]);
    expectPartnerError(await current(issued.key), 401, 'invalid_api_key');
  });
});
