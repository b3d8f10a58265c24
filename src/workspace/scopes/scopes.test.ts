// Scopes over the real listener: each lead operation admits exactly the scopes that grant its action scope, and a
// missing scope is 403 forbidden naming the required scope; the catalogue is public at GET /api/v1/scopes.
import { expectSvcError, expectSvcRateHeaders, svcHeaders } from '../../../test/helpers/workspace-expect.js';
import { call, startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { svcWorkspace, type SvcWorkspace } from '../../../test/support/workspace.js';
import { grantingScopes, scopeCatalogue } from './catalogue.js';

let platform: TestPlatform;
let base: string;
let ws: SvcWorkspace;
let leadId: string;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['workspace'] });
  base = platform.workspaceUrl;
  ws = await svcWorkspace(platform);
  const writer = await ws.key(['crm.leads.create']);
  leadId = (await call(base, 'POST', '/api/v1/leads', { headers: svcHeaders(writer.key), body: { name: 'Scoped' } })).body.id;
});
afterAll(async () => {
  await platform.stop();
});

const operations = [
  { scope: 'crm.leads.read', request: (key: string) => call(base, 'GET', '/api/v1/leads', { headers: svcHeaders(key) }) },
  { scope: 'crm.leads.read', request: (key: string) => call(base, 'GET', `/api/v1/leads/${leadId}`, { headers: svcHeaders(key) }) },
  {
    scope: 'crm.leads.create',
    request: (key: string) => call(base, 'POST', '/api/v1/leads', { headers: svcHeaders(key), body: { name: 'Lead' } }),
  },
  {
    scope: 'crm.leads.update',
    request: (key: string) => call(base, 'PATCH', `/api/v1/leads/${leadId}`, { headers: svcHeaders(key), body: { status: 'contacted' } }),
  },
];

test('every catalogue scope is admitted exactly where it grants the operation, else 403 forbidden naming the required scope', async () => {
  const keys = new Map<string, string>();
  for (const { scope } of scopeCatalogue) keys.set(scope, (await ws.key([scope])).key);
  for (const op of operations) {
    const admitted = new Set([op.scope, ...grantingScopes(op.scope)]);
    const results: Array<{ scope: string; res: Awaited<ReturnType<typeof op.request>> }> = [];
    for (const { scope } of scopeCatalogue) results.push({ scope, res: await op.request(keys.get(scope)!) });
    for (const { scope, res } of results.filter((r) => admitted.has(r.scope))) {
      const grant = `${scope} grants ${op.scope}`;
      expect({ grant, succeeded: res.status < 300, status: res.status, body: res.body }).toMatchObject({ grant, succeeded: true });
    }
    for (const { res } of results.filter((r) => !admitted.has(r.scope))) {
      expectSvcError(res, 403, 'forbidden', op.scope);
      expectSvcRateHeaders(res);
    }
  }
});

test('the 403 message names the required scope and what else grants it; several held scopes combine', async () => {
  const { key } = await ws.key(['crm.deals.read', 'inbox.send']);
  const res = await call(base, 'GET', '/api/v1/leads', { headers: svcHeaders(key) });
  expectSvcError(res, 403, 'forbidden');
  expect(res.body.message).toBe(
    'The key lacks the scope crm.leads.read (also granted by read-only, read-write, admin, crm.*, crm.read); scopes are fixed, so create a key that has it.',
  );
  const both = await ws.key(['crm.leads.create', 'crm.leads.read']);
  expect((await call(base, 'GET', '/api/v1/leads', { headers: svcHeaders(both.key) })).status).toBe(200);
  expect((await call(base, 'POST', '/api/v1/leads', { headers: svcHeaders(both.key), body: { name: 'x' } })).status).toBe(201);
  expectSvcError(
    await call(base, 'PATCH', `/api/v1/leads/${leadId}`, { headers: svcHeaders(both.key), body: {} }),
    403,
    'forbidden',
    'crm.leads.update',
  );
});

test('a missing scope changes nothing', async () => {
  const { key } = await ws.key(['read-only']);
  const before = await platform.db.query('select count(*)::int as n from crm_records where workspace_id = $1', [ws.id]);
  expectSvcError(
    await call(base, 'POST', '/api/v1/leads', { headers: svcHeaders(key), body: { name: 'nope' } }),
    403,
    'forbidden',
    'crm.leads.create',
  );
  expectSvcError(
    await call(base, 'PATCH', `/api/v1/leads/${leadId}`, { headers: svcHeaders(key), body: { status: 'converted' } }),
    403,
    'forbidden',
  );
  const after = await platform.db.query('select count(*)::int as n from crm_records where workspace_id = $1', [ws.id]);
  expect(after.rows[0].n).toBe(before.rows[0].n);
  expect((await call(base, 'GET', `/api/v1/leads/${leadId}`, { headers: svcHeaders(key) })).body.status).not.toBe('converted');
});

test('GET /api/v1/scopes publishes the catalogue without credentials', async () => {
  const res = await call(base, 'GET', '/api/v1/scopes');
  expect(res.status).toBe(200);
  expect(res.body.items.map((i: { scope: string }) => i.scope)).toEqual(scopeCatalogue.map((e) => e.scope));
  expect(res.body.items.find((i: { scope: string }) => i.scope === 'inbox.messages.send')).toEqual({
    scope: 'inbox.messages.send',
    level: 'action',
    description: 'Send messages (inbox)',
    granted_by: ['read-write', 'admin', 'inbox.*', 'inbox.send'],
  });
  expect(res.body.items.find((i: { scope: string }) => i.scope === 'crm.read')).toMatchObject({ level: 'module', granted_by: [] });
});
