// The IP allow-list over the listener: outside it 403 ip_not_allowed (rate headers shown, nothing counted), inside
// it the request goes on; TRUST_PROXY decides whether X-Forwarded-For is the client address, as on the partner
// listener.
import { expectSvcError, expectSvcRateHeaders, svcHeaders } from '../../helpers/workspace-expect.js';
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace } from '../../support/workspace.js';

let direct: TestPlatform;
let proxied: TestPlatform;

beforeAll(async () => {
  direct = await startTestPlatform({ services: ['workspace'] });
  proxied = await startTestPlatform({ services: ['workspace'], trustProxy: true });
});
afterAll(async () => {
  await proxied?.stop();
  await direct?.stop();
});

const leads = (node: TestPlatform, key: string, headers: Record<string, string> = {}) =>
  call(node.workspaceUrl, 'GET', '/api/v1/leads', { headers: { ...svcHeaders(key), ...headers } });

test('outside the list: 403 ip_not_allowed naming the address, with rate headers, counting nothing', async () => {
  const ws = await svcWorkspace(direct);
  const outside = await ws.key(['crm.read'], { ipAllowList: ['203.0.113.0/24', '2001:db8::/32'] });
  const inside = await ws.key(['crm.read'], { ipAllowList: ['127.0.0.0/8'] });
  const first = await leads(direct, inside.key);
  expect(first.status).toBe(200);
  const remaining = Number(first.headers.get('x-ratelimit-remaining'));
  for (let i = 0; i < 3; i++) {
    const res = await leads(direct, outside.key);
    expectSvcError(res, 403, 'ip_not_allowed', '127.0.0.1');
    expectSvcRateHeaders(res);
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBe(remaining);
  }
  const next = await leads(direct, inside.key);
  expect(Number(next.headers.get('x-ratelimit-remaining'))).toBe(remaining - 1);
  expect((await leads(direct, (await ws.key(['crm.read'], { ipAllowList: ['127.0.0.1'] })).key)).status).toBe(200);
  expect((await leads(direct, (await ws.key(['crm.read'])).key)).status).toBe(200);
});

test('without TRUST_PROXY, X-Forwarded-For is ignored: the socket address decides', async () => {
  const ws = await svcWorkspace(direct);
  const key = await ws.key(['crm.read'], { ipAllowList: ['203.0.113.0/24'] });
  expectSvcError(await leads(direct, key.key, { 'x-forwarded-for': '203.0.113.9' }), 403, 'ip_not_allowed');
});

test('with TRUST_PROXY, X-Forwarded-For decides, for IPv4 and IPv6 callers', async () => {
  const ws = await svcWorkspace(proxied);
  const key = await ws.key(['crm.read'], { ipAllowList: ['203.0.113.0/24', '2001:db8::/32', '198.51.100.7'] });
  expect((await leads(proxied, key.key, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(200);
  expect((await leads(proxied, key.key, { 'x-forwarded-for': '198.51.100.7' })).status).toBe(200);
  expect((await leads(proxied, key.key, { 'x-forwarded-for': '2001:db8:5::1' })).status).toBe(200);
  expectSvcError(await leads(proxied, key.key, { 'x-forwarded-for': '198.51.100.8' }), 403, 'ip_not_allowed', '198.51.100.8');
  expectSvcError(await leads(proxied, key.key, { 'x-forwarded-for': '2001:db9::1' }), 403, 'ip_not_allowed', '2001:db9::1');
  // No header: the socket address (127.0.0.1) is not in the list.
  expectSvcError(await leads(proxied, key.key), 403, 'ip_not_allowed', '127.0.0.1');
});

test('the allow-list is checked after the key: a revoked key from outside the list is 401', async () => {
  const ws = await svcWorkspace(direct);
  const key = await ws.key(['crm.read'], { ipAllowList: ['203.0.113.0/24'] });
  await direct.db.query('update svc_keys set revoked_at = now() where id = $1', [key.id]);
  expectSvcError(await leads(direct, key.key), 401, 'unauthorized');
});
