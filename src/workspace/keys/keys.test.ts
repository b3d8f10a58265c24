// svc_ key administration over the real workspace listener: format and storage (hash only), Owner and Admin only
// (Members 403 and see nothing, non-members 404), validation with nothing stored, list/get/revoke, Revoked and
// Expired refused at once, and a key refused on the administration surface.
import { createHash } from 'node:crypto';
import { count } from '../../../test/helpers/expect.js';
import { expectSvcError, svcHeaders } from '../../../test/helpers/workspace-expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../../test/support/platform.js';
import { svcWorkspace, type SvcWorkspace } from '../../../test/support/workspace.js';
import { ManualClock } from '../../platform/clock.js';
import { newId } from '../../platform/ids.js';
import { walkSvcListIds } from '../../../test/helpers/paging.js';

let platform: TestPlatform;
let base: string;
let ws: SvcWorkspace;
const clock = new ManualClock();

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['workspace'] }, clock);
  base = platform.workspaceUrl;
  ws = await svcWorkspace(platform);
});
afterAll(async () => {
  await platform.stop();
});
beforeEach(() => clock.set(new Date()));

const keysPath = (workspaceId: string) => `/api/v1/workspaces/${workspaceId}/svc-keys`;
const as = (who: TestAccount, method: string, path: string, body?: unknown) => call(base, method, path, { token: who.token, body });
const create = (who: TestAccount, body: Record<string, unknown>, workspaceId = ws.id) => as(who, 'POST', keysPath(workspaceId), body);
/** A request made with a key: the leads list (crm.leads.read). */
const useKey = (key: string) => call(base, 'GET', '/api/v1/leads', { headers: svcHeaders(key) });
const keyCount = (workspaceId = ws.id) => count(platform.db, 'select count(*) as n from svc_keys where workspace_id = $1', [workspaceId]);

describe('create', () => {
  test('201 with the full key once and a Location; svc_live_ + 32 base62; prefix = first 8 characters; only the hash is stored', async () => {
    const res = await create(ws.owner, {
      name: 'ERP sync',
      description: 'nightly import',
      scopes: ['crm.leads.read', 'crm.*', 'crm.leads.read'],
      ip_allow_list: ['203.0.113.7', '10.1.2.3/8', '2001:DB8:0:0::1/32', '::ffff:192.0.2.1', '127.0.0.1'],
      expires_at: new Date(clock.now().getTime() + 86_400_000).toISOString(),
    });
    expect(res.status).toBe(201);
    const key = res.body;
    expect(key.key).toMatch(/^svc_live_[A-Za-z0-9]{32}$/);
    expect(res.headers.get('location')).toBe(`${keysPath(ws.id)}/${key.id}`);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(key).toEqual({
      id: expect.any(String),
      workspace_id: ws.id,
      name: 'ERP sync',
      description: 'nightly import',
      prefix: key.key.slice(0, 8),
      last_four: key.key.slice(-4),
      environment: 'live',
      scopes: ['crm.leads.read', 'crm.*'],
      ip_allow_list: ['203.0.113.7', '10.0.0.0/8', '2001:db8::/32', '192.0.2.1', '127.0.0.1'],
      expires_at: new Date(clock.now().getTime() + 86_400_000).toISOString(),
      created_by: ws.owner.id,
      created_at: clock.now().toISOString(),
      last_used_at: null,
      revoked_at: null,
      status: 'Active',
      key: key.key,
    });
    expect(key.prefix).toBe('svc_live');
    const { rows } = await platform.db.query('select k.*, to_jsonb(k)::text as json from svc_keys k where id = $1', [key.id]);
    expect(rows[0].key_hash.equals(createHash('sha256').update(key.key).digest())).toBe(true);
    expect(rows[0].json).not.toContain(key.key.slice(9, 37));
    expect((await useKey(key.key)).status).toBe(200);
  });

  test('the random part comes from a CSPRNG over base62: no two keys alike, every character class used', async () => {
    const keys: string[] = [];
    for (let i = 0; i < 20; i++) keys.push((await create(ws.owner, { name: `k${i}`, scopes: ['read-only'] })).body.key);
    expect(new Set(keys).size).toBe(20);
    const randomParts = keys.map((k) => k.slice(9)).join('');
    expect(randomParts).toMatch(/[A-Z]/);
    expect(randomParts).toMatch(/[a-z]/);
    expect(randomParts).toMatch(/[0-9]/);
  });

  test('environment test gives svc_test_ keys; the key is never shown again by get or list', async () => {
    const created = (await create(ws.owner, { name: 'staging', scopes: ['read-only'], environment: 'test' })).body;
    expect(created.key).toMatch(/^svc_test_[A-Za-z0-9]{32}$/);
    expect(created.prefix).toBe('svc_test');
    const { key: _secret, ...view } = created;
    const got = await as(ws.owner, 'GET', `${keysPath(ws.id)}/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(view);
    const list = await as(ws.owner, 'GET', keysPath(ws.id));
    expect(list.body.items.find((k: { id: string }) => k.id === created.id)).toEqual(view);
    expect(JSON.stringify(list.body)).not.toContain(created.key);
  });

  test('an Admin creates too; created_by is the Admin', async () => {
    const admin = await ws.member('admin');
    const res = await create(admin, { name: 'by admin', scopes: ['hr.read'] });
    expect(res.status).toBe(201);
    expect(res.body.created_by).toBe(admin.id);
  });

  test('bad input is 400 invalid_request naming the field, and stores nothing', async () => {
    const before = await keyCount();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '   ', scopes: ['read-only'] }, 'body.name'],
      [{ name: 'n'.repeat(101), scopes: ['read-only'] }, 'body.name'],
      [{ name: 'x', scopes: [] }, 'body.scopes'],
      [{ name: 'x', scopes: ['crm.leads.fly'] }, 'body.scopes'],
      [{ name: 'x' }, 'body.scopes'],
      [{ name: 'x', scopes: ['read-only'], description: 'd'.repeat(501) }, 'body.description'],
      [{ name: 'x', scopes: ['read-only'], ip_allow_list: ['10.0.0.300'] }, 'body.ip_allow_list'],
      [{ name: 'x', scopes: ['read-only'], ip_allow_list: ['10.0.0.0/33'] }, 'body.ip_allow_list'],
      [{ name: 'x', scopes: ['read-only'], ip_allow_list: ['127.1'] }, 'body.ip_allow_list'],
      [{ name: 'x', scopes: ['read-only'], ip_allow_list: ['2001:db8::/129'] }, 'body.ip_allow_list'],
      [{ name: 'x', scopes: ['read-only'], expires_at: new Date(clock.now().getTime() - 1000).toISOString() }, 'body.expires_at'],
      [{ name: 'x', scopes: ['read-only'], environment: 'dev' }, 'body.environment'],
      [{ name: 'x', scopes: ['read-only'], status: 'Active' }, 'body.status'],
    ];
    for (const [body, field] of cases) expectSvcError(await create(ws.owner, body), 400, 'invalid_request', field);
    expect(await keyCount()).toBe(before);
  });
});

describe('who may administer keys', () => {
  test('a Member (manager, staff, a custom role) gets 403 forbidden on every operation and sees nothing', async () => {
    const existing = await ws.key(['read-only']);
    await platform.db.query('insert into workspace_roles (workspace_id, name) values ($1, $2) on conflict do nothing', [ws.id, 'auditor']);
    for (const role of ['manager', 'staff', 'auditor']) {
      const member = await ws.member(role);
      const before = await keyCount();
      for (const res of [
        await create(member, { name: 'x', scopes: ['read-only'] }),
        await as(member, 'GET', keysPath(ws.id)),
        await as(member, 'GET', `${keysPath(ws.id)}/${existing.id}`),
        await as(member, 'POST', `${keysPath(ws.id)}/${existing.id}/revoke`),
        await as(member, 'GET', `/api/v1/workspaces/${ws.id}/svc-audit-log`),
      ]) {
        expectSvcError(res, 403, 'forbidden', 'Owner and Admin');
        expect(JSON.stringify(res.body)).not.toContain(existing.id);
      }
      expect(await keyCount()).toBe(before);
    }
    expect((await useKey(existing.key)).status).toBe(200);
  });

  test('a non-member gets 404 not_found; a platform administrator who is not a member 403', async () => {
    const stranger = await ws.tenant.account();
    expectSvcError(await as(stranger, 'GET', keysPath(ws.id)), 404, 'not_found');
    expectSvcError(await create(stranger, { name: 'x', scopes: ['read-only'] }), 404, 'not_found');
    expectSvcError(await as(ws.owner, 'GET', keysPath(newId())), 404, 'not_found');
    const admin = await platform.adminToken();
    expectSvcError(await call(base, 'GET', keysPath(ws.id), { token: admin }), 403, 'forbidden');
  });

  test('no token, a bad token or a svc_ key: 401 unauthorized, 401, 403 forbidden', async () => {
    expectSvcError(await call(base, 'GET', keysPath(ws.id)), 401, 'unauthorized');
    expectSvcError(await call(base, 'GET', keysPath(ws.id), { token: 'not.a.jwt' }), 401, 'unauthorized');
    const expired = await ws.tenant.sign({}, { subject: ws.owner.id, expiresIn: '-10m' });
    expectSvcError(await call(base, 'GET', keysPath(ws.id), { token: expired }), 401, 'unauthorized');
    const adminKey = await ws.key(['admin']);
    expectSvcError(
      await call(base, 'GET', keysPath(ws.id), { headers: svcHeaders(adminKey.key) }),
      403,
      'forbidden',
      "user's bearer token",
    );
  });
});

describe('list and get', () => {
  test("newest first in pages; status filter at read time; another workspace's key is 404", async () => {
    const own = await svcWorkspace(platform);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create(own.owner, { name: `k${i}`, scopes: ['read-only'] }, own.id)).body.id);
    const listed = await walkSvcListIds((cursorQuery) => as(own.owner, 'GET', `${keysPath(own.id)}?limit=2${cursorQuery}`));
    expect(listed.pages).toBe(3);
    expect(listed.ids).toEqual([...ids].reverse());
    expectSvcError(await as(own.owner, 'GET', `${keysPath(own.id)}?cursor=bogus`), 400, 'invalid_request', 'query.cursor');

    const revokedId = ids[0]!;
    expect((await as(own.owner, 'POST', `${keysPath(own.id)}/${revokedId}/revoke`)).status).toBe(200);
    const soon = (
      await create(
        own.owner,
        { name: 'soon', scopes: ['read-only'], expires_at: new Date(clock.now().getTime() + 1000).toISOString() },
        own.id,
      )
    ).body.id;
    clock.advance(2000);
    const byStatus = async (status: string) => {
      const res = await as(own.owner, 'GET', `${keysPath(own.id)}?status=${status}`);
      expect({ status: res.status, body: res.body }).toMatchObject({ status: 200 });
      return res.body.items.map((k: { id: string }) => k.id);
    };
    expect(await byStatus('Revoked')).toEqual([revokedId]);
    expect(await byStatus('Expired')).toEqual([soon]);
    expect(await byStatus('Active')).toEqual(ids.slice(1).reverse());

    expectSvcError(await as(own.owner, 'GET', `${keysPath(own.id)}/${(await ws.key(['read-only'])).id}`), 404, 'not_found');
    expectSvcError(await as(own.owner, 'GET', `${keysPath(own.id)}/${newId()}`), 404, 'not_found');
  });
});

describe('revoke', () => {
  test('the key is refused with 401 from the very next request; the row stays; repeating answers the revoked key', async () => {
    const created = (await create(ws.owner, { name: 'to revoke', scopes: ['crm.leads.read'] })).body;
    expect((await useKey(created.key)).status).toBe(200);
    clock.advance(5000);
    const res = await as(ws.owner, 'POST', `${keysPath(ws.id)}/${created.id}/revoke`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, status: 'Revoked', revoked_at: clock.now().toISOString() });
    expect(res.body).not.toHaveProperty('key');
    expectSvcError(await useKey(created.key), 401, 'unauthorized');
    const { rows } = await platform.db.query('select revoked_at, revoked_by from svc_keys where id = $1', [created.id]);
    expect(rows).toEqual([{ revoked_at: clock.now(), revoked_by: ws.owner.id }]);
    clock.advance(5000);
    const again = await as(ws.owner, 'POST', `${keysPath(ws.id)}/${created.id}/revoke`);
    expect(again.status).toBe(200);
    expect(again.body.revoked_at).toBe(res.body.revoked_at);
    expectSvcError(await useKey(created.key), 401, 'unauthorized');
    expectSvcError(await as(ws.owner, 'POST', `${keysPath(ws.id)}/${newId()}/revoke`), 404, 'not_found');
  });

  test('there is no DELETE: 405 and the row stays', async () => {
    const created = await ws.key(['read-only']);
    const res = await as(ws.owner, 'DELETE', `${keysPath(ws.id)}/${created.id}`);
    expectSvcError(res, 405, 'method_not_allowed');
    expect(await count(platform.db, 'select count(*) as n from svc_keys where id = $1', [created.id])).toBe(1);
  });
});

describe('expiry', () => {
  test('a date expires at the end of that day, UTC: answered as the next midnight, refused from then on', async () => {
    const day = new Date(clock.now().getTime() + 2 * 86_400_000).toISOString().slice(0, 10);
    const midnight = new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000);
    const created = (await create(ws.owner, { name: 'dated', scopes: ['crm.leads.read'], expires_at: day })).body;
    expect(created.expires_at).toBe(midnight.toISOString());
    clock.set(new Date(midnight.getTime() - 1));
    expect((await useKey(created.key)).status).toBe(200);
    clock.set(midnight);
    expectSvcError(await useKey(created.key), 401, 'unauthorized');
  });

  test('a date that is not one, or whose day has ended, is refused and creates nothing', async () => {
    const before = await keyCount();
    const yesterday = new Date(clock.now().getTime() - 86_400_000).toISOString().slice(0, 10);
    for (const expires_at of ['2026-02-30', '2026-13-01', '31.12.2026', yesterday]) {
      expectSvcError(await create(ws.owner, { name: 'x', scopes: ['read-only'], expires_at }), 400, 'invalid_request', 'body.expires_at');
    }
    expect(await keyCount()).toBe(before);
  });

  test('once expires_at passes the key is Expired and refused, with no sweeper: the row is unchanged', async () => {
    const expiresAt = new Date(clock.now().getTime() + 60_000);
    const created = (await create(ws.owner, { name: 'short', scopes: ['crm.leads.read'], expires_at: expiresAt.toISOString() })).body;
    expect((await useKey(created.key)).status).toBe(200);
    clock.set(new Date(expiresAt.getTime() - 1));
    expect((await useKey(created.key)).status).toBe(200);
    clock.set(expiresAt);
    expectSvcError(await useKey(created.key), 401, 'unauthorized');
    expect((await as(ws.owner, 'GET', `${keysPath(ws.id)}/${created.id}`)).body.status).toBe('Expired');
    const { rows } = await platform.db.query('select revoked_at from svc_keys where id = $1', [created.id]);
    expect(rows[0].revoked_at).toBeNull();
    // Revoking an expired key makes it Revoked for good.
    expect((await as(ws.owner, 'POST', `${keysPath(ws.id)}/${created.id}/revoke`)).body.status).toBe('Revoked');
  });
});
