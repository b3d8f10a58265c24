// Plans by contract: platform administrators set a workspace's workspace-API plan and, for enterprise, its contract
// limits through the chat service's admin surface; the key gate of another node applies the change to the very
// next request. Bad input is a 400 and a non-admin a 403, both changing nothing.
import { ManualClock } from '../../../src/platform/clock.js';
import { expectError, expectOk } from '../../helpers/expect.js';
import { svcHeaders } from '../../helpers/workspace-expect.js';
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { svcWorkspace } from '../../support/workspace.js';

let nodeA: TestPlatform;
let nodeB: TestPlatform;
let admin: string;
const clock = new ManualClock(new Date('2026-11-24T10:00:00.000Z'));

beforeAll(async () => {
  nodeA = await startTestPlatform({ services: ['chat', 'workspace'] }, clock);
  nodeB = await startTestPlatform({ services: ['workspace'] }, clock);
  admin = await nodeA.adminToken();
});
afterAll(async () => {
  await nodeB?.stop();
  await nodeA?.stop();
});

const planPath = (id: string) => `/api/v1/admin/workspaces/${id}/plan`;
const setPlan = (id: string, body: unknown, token = admin) => call(nodeA.chatUrl, 'PUT', planPath(id), { token, body });
const hit = (key: string, node: TestPlatform) => call(node.workspaceUrl, 'GET', '/api/v1/leads?limit=1', { headers: svcHeaders(key) });
const limitOf = async (key: string, node: TestPlatform) => Number((await hit(key, node)).headers.get('x-ratelimit-limit'));
const stored = async (id: string) =>
  (await nodeA.db.query('select svc_plan, svc_rate_per_hour, svc_rate_per_minute from workspaces where id = $1', [id])).rows[0];

test('a contract plan set on one node limits the next request on another node', async () => {
  const ws = await svcWorkspace(nodeA, { plan: 'free' });
  const { key } = await ws.key(['crm.read']);
  // Node B caches the key with its free plan.
  expect(await limitOf(key, nodeB)).toBe(100);

  const res = await setPlan(ws.id, { plan: 'enterprise', ratePerHour: 50_000, burstPerMinute: 3 });
  expectOk(res);
  expect(res.body.data).toEqual({
    workspaceId: ws.id,
    plan: 'enterprise',
    contract: { ratePerHour: 50_000, burstPerMinute: 3 },
    limits: { ratePerHour: 50_000, burstPerMinute: 3 },
  });
  // The burst of 3 binds at once on node B: with the free request before the change, the third is the last admitted.
  expect(await limitOf(key, nodeB)).toBe(50_000);
  expect((await hit(key, nodeB)).status).toBe(200);
  expect((await hit(key, nodeB)).status).toBe(429);

  const read = await call(nodeA.chatUrl, 'GET', planPath(ws.id), { token: admin });
  expectOk(read);
  expect(read.body.data).toEqual(res.body.data);

  // Enterprise without a contract falls back to business's limits; another plan keeps no contract columns.
  clock.set(new Date('2026-11-24T10:01:00.000Z'));
  expect((await setPlan(ws.id, { plan: 'enterprise' })).body.data).toMatchObject({
    contract: { ratePerHour: null, burstPerMinute: null },
    limits: { ratePerHour: 10_000, burstPerMinute: 500 },
  });
  expect(await limitOf(key, nodeB)).toBe(10_000);
  expect((await setPlan(ws.id, { plan: 'pro' })).body.data).toMatchObject({
    plan: 'pro',
    contract: null,
    limits: { ratePerHour: 1000, burstPerMinute: 100 },
  });
  expect(await limitOf(key, nodeB)).toBe(1000);
  expect(await stored(ws.id)).toEqual({ svc_plan: 'pro', svc_rate_per_hour: null, svc_rate_per_minute: null });
});

test('bad input is a 400 and changes nothing', async () => {
  const ws = await svcWorkspace(nodeA, { plan: 'enterprise', perHour: 7000, perMinute: 70 });
  const before = await stored(ws.id);
  expectError(await setPlan(ws.id, { plan: 'gold' }), 400, 'validation_failed', 'body.plan');
  expectError(await setPlan(ws.id, {}), 400, 'validation_failed', 'body.plan');
  expectError(await setPlan(ws.id, { plan: 'enterprise', ratePerHour: 0 }), 400, 'validation_failed', 'body.ratePerHour');
  expectError(await setPlan(ws.id, { plan: 'enterprise', burstPerMinute: 2_147_483_648 }), 400, 'validation_failed', 'body.burstPerMinute');
  expectError(await setPlan(ws.id, { plan: 'enterprise', ratePerHour: 1.5 }), 400, 'validation_failed', 'body.ratePerHour');
  expectError(await setPlan(ws.id, { plan: 'pro', ratePerHour: 5000 }), 400, 'validation_failed', 'body.ratePerHour');
  expectError(await setPlan(ws.id, { plan: 'business', burstPerMinute: 5 }), 400, 'validation_failed', 'body.burstPerMinute');
  expectError(await call(nodeA.chatUrl, 'PUT', planPath('not-a-uuid'), { token: admin, body: { plan: 'pro' } }), 400, 'validation_failed');
  expect(await stored(ws.id)).toEqual(before);
});

test('only platform administrators; an unknown workspace is a 404', async () => {
  const ws = await svcWorkspace(nodeA, { plan: 'free' });
  // Not even the workspace's Owner may change its plan.
  expectError(await setPlan(ws.id, { plan: 'enterprise', ratePerHour: 1_000_000 }, ws.owner.token), 403, 'platform_admin_required');
  expectError(await call(nodeA.chatUrl, 'GET', planPath(ws.id), { token: ws.owner.token }), 403, 'platform_admin_required');
  expectError(await call(nodeA.chatUrl, 'PUT', planPath(ws.id), { body: { plan: 'pro' } }), 401, 'unauthenticated');
  expect(await stored(ws.id)).toEqual({ svc_plan: 'free', svc_rate_per_hour: null, svc_rate_per_minute: null });

  const unknown = '00000000-0000-4000-8000-000000000000';
  expectError(await setPlan(unknown, { plan: 'pro' }), 404, 'workspace_not_found');
  expectError(await call(nodeA.chatUrl, 'GET', planPath(unknown), { token: admin }), 404, 'workspace_not_found');
});
