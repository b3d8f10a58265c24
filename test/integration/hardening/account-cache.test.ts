// Account status is cached on each node and dropped on every node through Redis before a status change answers:
// deactivate through node A, and node B refuses the very next request. With warm caches a send costs exactly one
// database round trip (token, account status and membership included).
import { ManualClock } from '../../../src/platform/clock.js';
import { expectError, expectOk } from '../../helpers/expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../support/platform.js';
import { countQueries } from './support.js';
import { alternate } from '../../helpers/data.js';

const ttlMs = 60_000;
const clock = new ManualClock();
let nodeA: TestPlatform;
let nodeB: TestPlatform;
let admin: string;
let tenant: TestTenant;

beforeAll(async () => {
  // Chat only and no workers: nothing but the requests of the test talks to PostgreSQL.
  [nodeA, nodeB] = await Promise.all([
    startTestPlatform({ services: ['chat'], accountCacheTtlMs: ttlMs }, clock),
    startTestPlatform({ services: ['chat'], accountCacheTtlMs: ttlMs }, clock),
  ]);
  admin = await nodeA.adminToken();
  tenant = await nodeA.tenant();
});
afterAll(async () => {
  await Promise.all([nodeA?.stop(), nodeB?.stop()]);
});

const rooms = (node: TestPlatform, who: TestAccount) => call(node.chatUrl, 'GET', '/api/v1/rooms', { token: who.token });
const setStatus = (node: TestPlatform, who: TestAccount, status: string) =>
  call(node.chatUrl, 'PATCH', `/api/v1/accounts/${who.id}/status`, { token: admin, body: { status } });

test('deactivated through node A, refused by node B on the very next request; banned and reactivated likewise', async () => {
  const alice = await tenant.account();
  expectOk(await rooms(nodeB, alice)); // node B caches alice as ACTIVE
  expectOk(await rooms(nodeA, alice));

  expectOk(await setStatus(nodeA, alice, 'DEACTIVATED'));
  expectError(await rooms(nodeB, alice), 403, 'account_deactivated');
  expectError(await rooms(nodeA, alice), 403, 'account_deactivated');

  expectOk(await setStatus(nodeB, alice, 'BANNED'));
  expectError(await rooms(nodeA, alice), 403, 'account_banned');
  expectError(await rooms(nodeB, alice), 403, 'account_banned');

  expectOk(await setStatus(nodeA, alice, 'ACTIVE'));
  expectOk(await rooms(nodeB, alice));
  expectOk(await rooms(nodeA, alice));
});

test('many accounts, alternating nodes: every deactivation holds on the other node at once', async () => {
  const accounts = await Promise.all(Array.from({ length: 10 }, () => tenant.account()));
  for (const [i, who] of accounts.entries()) {
    const [writer, reader] = alternate(i, [nodeA, nodeB], [nodeB, nodeA]);
    expectOk(await rooms(reader, who));
    expectOk(await setStatus(writer, who, 'DEACTIVATED'));
    expectError(await rooms(reader, who), 403, 'account_deactivated');
  }
});

test('the cache is real: a change written behind its back shows only once the TTL has run out', async () => {
  const bob = await tenant.account();
  expectOk(await rooms(nodeB, bob));
  await nodeA.db.query("update accounts set status = 'DEACTIVATED' where id = $1", [bob.id]);
  expectOk(await rooms(nodeB, bob)); // cached, no invalidation was published
  clock.advance(ttlMs + 1);
  expectError(await rooms(nodeB, bob), 403, 'account_deactivated');
});

test('with warm caches a send is one database round trip, and a refused account costs none', async () => {
  const carol = await tenant.account();
  const room = await call(nodeA.chatUrl, 'POST', '/api/v1/rooms', { token: carol.token, body: { type: 'GROUP', name: 'Trips' } });
  expectOk(room, 201);
  const path = `/api/v1/rooms/${room.body.data.id}/messages`;
  expectOk(await call(nodeA.chatUrl, 'POST', path, { token: carol.token, body: { text: 'warm-up' } }), 201);

  const { count, texts } = await countQueries(async () => {
    expectOk(await call(nodeA.chatUrl, 'POST', path, { token: carol.token, body: { text: 'measured' } }), 201);
  });
  expect(texts).toHaveLength(1);
  expect(count).toBe(1);
  expect(texts[0]).toMatch(/insert into "?messages"?/);

  const dave = await tenant.account({ status: 'DEACTIVATED' });
  expectError(await rooms(nodeA, dave), 403, 'account_deactivated');
  const refused = await countQueries(async () => {
    expectError(await call(nodeA.chatUrl, 'POST', path, { token: dave.token, body: { text: 'no' } }), 403, 'account_deactivated');
  });
  expect(refused.count).toBe(0);
});
