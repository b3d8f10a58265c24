// A revoked key is refused on the very next request on every node: two workspace nodes share the database and Redis,
// and the revoking node empties every node's key cache (GateKeyCache) before it answers.
import { expectSvcError, svcHeaders } from '../../helpers/workspace-expect.js';
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace } from '../../support/workspace.js';

let nodeA: TestPlatform;
let nodeB: TestPlatform;

beforeAll(async () => {
  nodeA = await startTestPlatform({ services: ['workspace'] });
  nodeB = await startTestPlatform({ services: ['workspace'] });
});
afterAll(async () => {
  await nodeB?.stop();
  await nodeA?.stop();
});

const leads = (node: TestPlatform, key: string) => call(node.workspaceUrl, 'GET', '/api/v1/leads', { headers: svcHeaders(key) });

test('a key revoked by its Owner on node A is refused by node B on the next request, and by A', async () => {
  const ws = await svcWorkspace(nodeA);
  const { id, key } = await ws.key(['crm.read']);
  // Both nodes have served the key, so any cache would hold it now.
  for (let i = 0; i < 3; i++) {
    expect((await leads(nodeA, key)).status).toBe(200);
    expect((await leads(nodeB, key)).status).toBe(200);
  }
  const res = await call(nodeA.workspaceUrl, 'POST', `/api/v1/workspaces/${ws.id}/svc-keys/${id}/revoke`, { token: ws.owner.token });
  expect(res.status).toBe(200);
  expectSvcError(await leads(nodeB, key), 401, 'unauthorized');
  expectSvcError(await leads(nodeA, key), 401, 'unauthorized');
});

test('a key revoked by an Admin on node B is refused by node A on the next request', async () => {
  const ws = await svcWorkspace(nodeA);
  const admin = await ws.member('admin');
  const { id, key } = await ws.key(['crm.read']);
  expect((await leads(nodeA, key)).status).toBe(200);
  expect((await call(nodeB.workspaceUrl, 'POST', `/api/v1/workspaces/${ws.id}/svc-keys/${id}/revoke`, { token: admin.token })).status).toBe(
    200,
  );
  expectSvcError(await leads(nodeA, key), 401, 'unauthorized');
});
