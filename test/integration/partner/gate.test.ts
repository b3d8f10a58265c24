// The key gate over the real partner listener: key validation, the allowed surface, scopes, the workspace's
// external API access, rate headers on every response and the convention A envelope of framework errors.
import { randomUUID } from 'node:crypto';
import { count } from '../../helpers/expect.js';
import { expectPartnerError, expectRateHeaders, keyHeaders } from '../../helpers/partner-expect.js';
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { testWorkspace, type TestWorkspace } from '../../support/partner.js';

let platform: TestPlatform;
let base: string;
let ws: TestWorkspace;
let allCrm: string;

const crmScopes = ['crm_leads:*', 'crm_deals:*', 'crm_contacts:*', 'crm_companies:*', 'crm_activities:*', 'crm_invoices:read'];

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['partner'] });
  base = platform.partnerUrl;
  ws = await testWorkspace(platform);
  allCrm = (await ws.key(crmScopes)).key;
});
afterAll(async () => {
  await platform.stop();
});

const me = (key?: string) => call(base, 'GET', '/api/v1/partner/crm/_me', { headers: key === undefined ? {} : { 'x-api-key': key } });

describe('key validation', () => {
  test('a valid key passes, with the rate headers and the request id', async () => {
    const res = await me(allCrm);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'crm.api_identity', tenant_id: ws.id, actor_type: 'api_key', key_prefix: allCrm.slice(0, 8) });
    expectRateHeaders(res);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  test('no key on a key surface: 401 invalid_api_key', async () => {
    expectPartnerError(await me(), 401, 'invalid_api_key');
    expectPartnerError(await me(''), 401, 'invalid_api_key');
  });

  test('a wrong key, a display prefix and a truncated key: 401 invalid_api_key', async () => {
    expectPartnerError(await me(`live_${'A'.repeat(40)}`), 401, 'invalid_api_key');
    expectPartnerError(await me(allCrm.slice(0, 8)), 401, 'invalid_api_key');
    expectPartnerError(await me(allCrm.slice(0, -1)), 401, 'invalid_api_key');
  });

  test('a revoked key dies on the next request', async () => {
    const { id, key } = await ws.key(['crm_leads:read']);
    expect((await me(key)).status).toBe(200);
    const revoked = await call(base, 'POST', `/api/v1/workspaces/${ws.id}/api-keys/${id}/revoke`, {
      token: ws.owner.token,
      body: { confirm: true },
    });
    expect(revoked.status).toBe(200);
    expectPartnerError(await me(key), 401, 'invalid_api_key');
  });

  test('an expired key is refused although its row still reads active', async () => {
    const { key } = await ws.key(['crm_leads:read'], { expiresAt: new Date(Date.now() - 1000) });
    expectPartnerError(await me(key), 401, 'invalid_api_key');
    const { key: later } = await ws.key(['crm_leads:read'], { expiresAt: new Date(Date.now() + 3_600_000) });
    expect((await me(later)).status).toBe(200);
  });

  test('a workspace without external API access: 403 external_api_disabled, even for valid keys', async () => {
    const free = await testWorkspace(platform, { plan: 'free' });
    const { key } = await free.key(['crm_leads:read']);
    expectPartnerError(await me(key), 403, 'external_api_disabled');
    // Webhooks alone is enough.
    const team = await call(base, 'PUT', `/api/v1/workspaces/${free.id}/plan`, {
      token: await platform.adminToken(),
      body: { plan: 'team' },
    });
    expect(team.status).toBe(200);
    expect((await me(key)).status).toBe(200);
  });

  test('last use is recorded without a write per request', async () => {
    const { id, key } = await ws.key(['crm_leads:read']);
    const before = await platform.db.query('select last_used_at from api_keys where id = $1', [id]);
    expect(before.rows[0].last_used_at).toBeNull();
    await me(key);
    await me(key);
    await platform.flushKeyUsage!();
    const after = await platform.db.query('select last_used_at from api_keys where id = $1', [id]);
    expect(after.rows[0].last_used_at).toBeInstanceOf(Date);
    expect(Math.abs(after.rows[0].last_used_at.getTime() - Date.now())).toBeLessThan(60_000);
  });
});

describe('surface', () => {
  test.each([
    '/api/v1/workspaces',
    '/api/v1/plans',
    '/api/v1/users/1',
    '/api/v1/payroll',
    '/api/v1/attendance',
    '/api/v1/partner',
    '/api/v1/partner/crmx',
    '/',
  ])('a key on %s: 403 scope_required with details.scope user_only', async (path) => {
    const res = await call(base, 'GET', path, { headers: { 'x-api-key': allCrm } });
    expectPartnerError(res, 403, 'scope_required', { scope: 'user_only' });
  });

  test('every scope of the catalogue does not open an internal surface', async () => {
    const catalogue = await call(base, 'GET', '/api/v1/partner/crm/_scopes', { headers: { 'x-api-key': allCrm } });
    expect(catalogue.status).toBe(200);
    const ids: string[] = catalogue.body.scopes.map((s: { id: string }) => s.id);
    const { key } = await ws.key(ids.slice(0, 20));
    const res = await call(base, 'POST', '/api/v1/workspaces', { headers: keyHeaders(key, randomUUID()), body: { name: 'x' } });
    expectPartnerError(res, 403, 'scope_required', { scope: 'user_only' });
  });

  test('a path of a surface that no operation serves passes the gate to the router', async () => {
    expectPartnerError(
      await call(base, 'GET', '/api/v1/reports/no-such-report', { headers: { 'x-api-key': allCrm } }),
      404,
      'route_not_found',
    );
    expectPartnerError(await call(base, 'GET', '/api/v1/reports/no-such-report'), 401, 'invalid_api_key');
  });

  test('a served inbox path with a key lacking its scope is 403 naming the scope', async () => {
    expectPartnerError(
      await call(base, 'GET', '/api/v1/inbox/conversations', { headers: { 'x-api-key': allCrm } }),
      403,
      'scope_required',
      { scope: 'conversations:read' },
    );
    expectPartnerError(await call(base, 'GET', '/api/v1/inbox/conversations'), 401, 'invalid_api_key');
  });

  test('an invalid key on an internal surface is 401: the key is validated before the surface', async () => {
    expectPartnerError(await call(base, 'GET', '/api/v1/payroll', { headers: { 'x-api-key': 'nope' } }), 401, 'invalid_api_key');
  });
});

describe('scope', () => {
  test('a key without the scope: 403 scope_required naming it', async () => {
    const { key } = await ws.key(['crm_leads:read']);
    expect((await call(base, 'GET', '/api/v1/partner/crm/leads', { headers: { 'x-api-key': key } })).status).toBe(200);
    const write = await call(base, 'POST', '/api/v1/partner/crm/leads', {
      headers: keyHeaders(key, randomUUID()),
      body: { full_name: 'Ada' },
    });
    expectPartnerError(write, 403, 'scope_required', { scope: 'crm_leads:write' });
    expectPartnerError(await call(base, 'GET', '/api/v1/partner/crm/deals', { headers: { 'x-api-key': key } }), 403, 'scope_required', {
      scope: 'crm_deals:read',
    });
    expectPartnerError(
      await call(base, 'GET', `/api/v1/partner/crm/invoices/${randomUUID()}`, { headers: { 'x-api-key': key } }),
      403,
      'scope_required',
      { scope: 'crm_invoices:read' },
    );
  });

  test('group:* grants read and write of the group only', async () => {
    const { key } = await ws.key(['crm_deals:*']);
    const created = await call(base, 'POST', '/api/v1/partner/crm/deals', {
      headers: keyHeaders(key, randomUUID()),
      body: { title: 'Big one' },
    });
    expect(created.status).toBe(201);
    expect((await call(base, 'GET', `/api/v1/partner/crm/deals/${created.body.id}`, { headers: { 'x-api-key': key } })).status).toBe(200);
    expectPartnerError(await call(base, 'GET', '/api/v1/partner/crm/leads', { headers: { 'x-api-key': key } }), 403, 'scope_required', {
      scope: 'crm_leads:read',
    });
  });
});

describe('framework errors in the partner envelope', () => {
  const post = (body: string, headers: Record<string, string> = {}) =>
    call(base, 'POST', '/api/v1/partner/crm/leads', {
      rawBody: body,
      headers: { ...keyHeaders(allCrm, randomUUID()), 'content-type': 'application/json', ...headers },
    });

  test('malformed JSON: 400 bad_input', async () => {
    expectPartnerError(await post('{"full_name":'), 400, 'bad_input');
  });

  test('an unknown field: 400 bad_input naming it, and nothing is created', async () => {
    const before = await count(platform.db, 'select count(*) as n from crm_records where workspace_id = $1', [ws.id]);
    const res = await post(JSON.stringify({ full_name: 'Ada', nickname: 'A' }));
    expectPartnerError(res, 400, 'bad_input', { field: 'body.nickname' });
    expect(await count(platform.db, 'select count(*) as n from crm_records where workspace_id = $1', [ws.id])).toBe(before);
  });

  test('a missing required field: 400 bad_input naming it', async () => {
    expectPartnerError(await post(JSON.stringify({ email: 'a@example.com' })), 400, 'bad_input', { field: 'body.full_name' });
  });

  test('a body over the limit: 413', async () => {
    expectPartnerError(
      await post(JSON.stringify({ full_name: 'x'.repeat(platform.config.bodyLimitBytes + 10) })),
      413,
      'payload_too_large',
    );
  });

  test('a body that is not JSON: 415', async () => {
    expectPartnerError(await post('full_name=Ada', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'unsupported_media_type');
  });

  test('an unknown route and a method the resource lacks', async () => {
    expectPartnerError(
      await call(base, 'GET', '/api/v1/partner/crm/widgets', { headers: { 'x-api-key': allCrm } }),
      404,
      'route_not_found',
    );
    const res = await call(base, 'DELETE', `/api/v1/partner/crm/leads/${randomUUID()}`, { headers: keyHeaders(allCrm, randomUUID()) });
    expectPartnerError(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toContain('PATCH');
  });

  test('a bad path parameter: 400 bad_input', async () => {
    expectPartnerError(
      await call(base, 'GET', '/api/v1/partner/crm/leads/not-a-uuid', { headers: { 'x-api-key': allCrm } }),
      400,
      'bad_input',
      { field: 'path.id' },
    );
  });

  test('an administration call without a token: 401 in the partner envelope', async () => {
    expectPartnerError(await call(base, 'GET', '/api/v1/workspaces'), 401, 'unauthenticated');
  });
});
