// Two nodes on one PostgreSQL and Redis, each serving chat, partner and workspace: what one node changes about who
// may call is refused by the other on the very next request. (Partner and workspace API-key revocation across
// nodes: test/integration/partner/revocation-nodes.test.ts, test/integration/workspace/revocation-nodes.test.ts;
// chat account status: test/integration/hardening/account-cache.test.ts; shared rate limits: the rate-limit tests.)
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace } from '../../support/workspace.js';

let nodeA: TestPlatform;
let nodeB: TestPlatform;
let admin: string;

beforeAll(async () => {
  [nodeA, nodeB] = await Promise.all([
    startTestPlatform({ services: ['chat', 'partner', 'workspace'] }),
    startTestPlatform({ services: ['chat', 'partner', 'workspace'] }),
  ]);
  admin = await nodeA.adminToken();
});
afterAll(async () => {
  await Promise.all([nodeA?.stop(), nodeB?.stop()]);
});

test('a chat verify key removed and refreshed through node A: node B refuses tokens it had already verified', async () => {
  const tenant = await nodeA.tenant();
  const alice = await tenant.account();
  // Node B has verified alice's token (and cached the key and the verified token).
  for (let i = 0; i < 3; i++) expect((await call(nodeB.chatUrl, 'GET', '/api/v1/rooms', { token: alice.token })).status).toBe(200);
  await nodeA.db.query('delete from customer_keys where module_code = $1 and customer_account_id = $2', [
    tenant.moduleCode,
    tenant.customer,
  ]);
  const refresh = await call(
    nodeA.chatUrl,
    'POST',
    `/api/v1/admin/modules/${tenant.moduleCode}/customers/${tenant.customer}/keys/refresh`,
    { token: admin },
  );
  expect(refresh.status).toBe(200);
  const next = await call(nodeB.chatUrl, 'GET', '/api/v1/rooms', { token: alice.token });
  expect(next.status).toBe(401);
  expect((await call(nodeA.chatUrl, 'GET', '/api/v1/rooms', { token: alice.token })).status).toBe(401);
});

test('an account deactivated through node A is refused by node B on its chat, partner and workspace listeners', async () => {
  const ws = await svcWorkspace(nodeA);
  const owner = ws.owner;
  const surfaces = [
    () => call(nodeB.chatUrl, 'GET', '/api/v1/rooms', { token: owner.token }),
    () => call(nodeB.partnerUrl, 'GET', `/api/v1/workspaces/${ws.id}/members`, { token: owner.token }),
    () => call(nodeB.workspaceUrl, 'GET', `/api/v1/workspaces/${ws.id}/svc-keys`, { token: owner.token }),
  ];
  // Warm every cache of node B with the account as ACTIVE.
  for (const hit of surfaces) for (let i = 0; i < 2; i++) expect((await hit()).status).toBe(200);
  const res = await call(nodeA.chatUrl, 'PATCH', `/api/v1/accounts/${owner.id}/status`, { token: admin, body: { status: 'DEACTIVATED' } });
  expect(res.status).toBe(200);
  for (const hit of surfaces) {
    const refused = await hit();
    expect({ status: refused.status, body: refused.body }).toMatchObject({ status: 403 });
  }
  // Reactivated through node B: node A lets it in again at once.
  expect(
    (await call(nodeB.chatUrl, 'PATCH', `/api/v1/accounts/${owner.id}/status`, { token: admin, body: { status: 'ACTIVE' } })).status,
  ).toBe(200);
  expect((await call(nodeA.partnerUrl, 'GET', `/api/v1/workspaces/${ws.id}/members`, { token: owner.token })).status).toBe(200);
});
