// Every row of the seed's error table, end to end: { error, message } (plus retry_after on 429) with X-Request-ID.
// A database of its own, so that the server fault provoked at the end touches no other test file.
import { expectSvcError, expectSvcRateHeaders, svcHeaders } from '../../helpers/workspace-expect.js';
import { call, isolatedInfra, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace, type SvcWorkspace } from '../../support/workspace.js';

let infra: Awaited<ReturnType<typeof isolatedInfra>>;
let platform: TestPlatform;
let ws: SvcWorkspace;

beforeAll(async () => {
  infra = await isolatedInfra();
  platform = await startTestPlatform({ services: ['workspace'], databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl });
  ws = await svcWorkspace(platform, { plan: 'enterprise', perHour: 1000, perMinute: 2 });
});
afterAll(async () => {
  await platform?.stop();
  await infra?.drop();
});

const leads = (headers: Record<string, string>) => call(platform.workspaceUrl, 'GET', '/api/v1/leads', { headers });

test('401 unauthorized: missing, wrong, malformed, revoked key', async () => {
  const { id, key } = await ws.key(['crm.read']);
  expectSvcError(await leads({}), 401, 'unauthorized');
  expectSvcError(await leads({ authorization: 'Basic abc' }), 401, 'unauthorized');
  expectSvcError(await leads(svcHeaders('svc_live_' + 'Z'.repeat(32))), 401, 'unauthorized');
  expectSvcError(await leads(svcHeaders('svc_live_short')), 401, 'unauthorized');
  expectSvcError(await leads(svcHeaders(key.slice(0, 8))), 401, 'unauthorized');
  await platform.db.query('update svc_keys set revoked_at = now() where id = $1', [id]);
  expectSvcError(await leads(svcHeaders(key)), 401, 'unauthorized');
});

test('403 forbidden naming the required scope; 403 ip_not_allowed', async () => {
  const scoped = await ws.key(['inbox.*']);
  expectSvcError(await leads(svcHeaders(scoped.key)), 403, 'forbidden', 'crm.leads.read');
  const fenced = await ws.key(['crm.read'], { ipAllowList: ['198.51.100.0/24'] });
  expectSvcError(await leads(svcHeaders(fenced.key)), 403, 'ip_not_allowed');
});

/** Lists leads with the key up to n times, until the answer is 429; the last answer. */
async function firstRefusal(key: string, n: number) {
  let res = await leads(svcHeaders(key));
  for (let i = 1; i < n && res.status !== 429; i++) res = await leads(svcHeaders(key));
  return res;
}

test('429 rate_limit_exceeded with retry_after in the body and Retry-After', async () => {
  const { key } = await ws.key(['crm.read']);
  const res = await firstRefusal(key, 6);
  expectSvcError(res, 429, 'rate_limit_exceeded');
  expectSvcRateHeaders(res);
  expect(res.body.retry_after).toBeGreaterThan(0);
  expect(res.headers.get('retry-after')).toBe(String(res.body.retry_after));
});

test('500 internal_error: a server fault, reported with the X-Request-ID value and nothing of its cause', async () => {
  const other = await svcWorkspace(platform);
  const { key } = await other.key(['crm.read']);
  await platform.db.query('alter table crm_records rename to crm_records_away');
  try {
    const res = await call(platform.workspaceUrl, 'GET', '/api/v1/leads', { headers: { ...svcHeaders(key), 'x-request-id': 'fault-1' } });
    expectSvcError(res, 500, 'internal_error', 'X-Request-ID');
    expect(res.headers.get('x-request-id')).toBe('fault-1');
    expect(res.body.message).not.toContain('crm_records');
    expectSvcRateHeaders(res);
  } finally {
    await platform.db.query('alter table crm_records_away rename to crm_records');
  }
  expect((await call(platform.workspaceUrl, 'GET', '/api/v1/leads', { headers: svcHeaders(key) })).status).toBe(200);
});
