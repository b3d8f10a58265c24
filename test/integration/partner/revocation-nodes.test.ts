// A revoked key dies on the very next request on every node: two partner nodes share the database, and a key
// revoked through one is refused by the other at once.
import { randomUUID } from 'node:crypto';
import { expectPartnerError, keyHeaders } from '../../helpers/partner-expect.js';
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { testWorkspace } from '../../support/partner.js';

let nodeA: TestPlatform;
let nodeB: TestPlatform;

beforeAll(async () => {
  nodeA = await startTestPlatform({ services: ['partner'] });
  nodeB = await startTestPlatform({ services: ['partner'] });
});
afterAll(async () => {
  await nodeB?.stop();
  await nodeA?.stop();
});

const me = (node: TestPlatform, key: string) => call(node.partnerUrl, 'GET', '/api/v1/partner/crm/_me', { headers: { 'x-api-key': key } });

test('a key that revokes itself on node A is refused by node B on the next request', async () => {
  const ws = await testWorkspace(nodeA);
  const { key } = await ws.key(['crm_leads:read']);
  expect((await me(nodeA, key)).status).toBe(200);
  expect((await me(nodeB, key)).status).toBe(200);
  const revoked = await call(nodeA.partnerUrl, 'POST', '/api/v1/api-keys/current/revoke', {
    headers: keyHeaders(key, randomUUID()),
    body: { confirm: true },
  });
  expect(revoked.status).toBe(200);
  expect(revoked.body.status).toBe('revoked');
  expectPartnerError(await me(nodeB, key), 401, 'invalid_api_key');
  expectPartnerError(await me(nodeA, key), 401, 'invalid_api_key');
});

test('a key revoked by an administrator on node B is refused by node A on the next request', async () => {
  const ws = await testWorkspace(nodeA);
  const { id, key } = await ws.key(['crm_leads:read']);
  expect((await me(nodeA, key)).status).toBe(200);
  const res = await call(nodeB.partnerUrl, 'POST', `/api/v1/workspaces/${ws.id}/api-keys/${id}/revoke`, {
    token: ws.owner.token,
    body: { confirm: true },
  });
  expect(res.status).toBe(200);
  expectPartnerError(await me(nodeA, key), 401, 'invalid_api_key');
});

test('a plan without the external API set on node A is refused by node B, whose gate had the key cached', async () => {
  const ws = await testWorkspace(nodeA);
  const { key } = await ws.key(['crm_leads:read']);
  for (let i = 0; i < 3; i++) expect((await me(nodeB, key)).status).toBe(200);
  const admin = await nodeA.adminToken();
  const downgraded = await call(nodeA.partnerUrl, 'PUT', `/api/v1/workspaces/${ws.id}/plan`, { token: admin, body: { plan: 'free' } });
  expect(downgraded.status).toBe(200);
  expectPartnerError(await me(nodeB, key), 403, 'external_api_disabled');
  const upgraded = await call(nodeB.partnerUrl, 'PUT', `/api/v1/workspaces/${ws.id}/plan`, { token: admin, body: { plan: 'business' } });
  expect(upgraded.status).toBe(200);
  expect((await me(nodeA, key)).status).toBe(200);
});
