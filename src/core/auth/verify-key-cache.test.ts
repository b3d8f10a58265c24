// Two platform nodes on one database and one Redis: each caches verify keys, and a key registered or refreshed
// through one node is honoured by the other at once (Redis pub/sub invalidation), long before the cache TTL.
import { newId } from '../../platform/ids.js';
import { eventually, expectError, expectOk } from '../../../test/helpers/expect.js';
import { call, generateSigningKey, startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';

// An hour: only an invalidation can make a node see a new key within these tests.
const ttl = 3_600_000;
let nodeA: TestPlatform;
let nodeB: TestPlatform;
let admin: string;

beforeAll(async () => {
  [nodeA, nodeB] = await Promise.all([
    startTestPlatform({ services: ['chat'], verifyKeyCacheTtlMs: ttl }),
    startTestPlatform({ services: ['chat'], verifyKeyCacheTtlMs: ttl }),
  ]);
  admin = await nodeA.adminToken();
});
afterAll(async () => {
  await Promise.all([nodeA?.stop(), nodeB?.stop()]);
});

const rooms = (node: TestPlatform, token: string) => call(node.chatUrl, 'GET', '/api/v1/rooms', { token });
const keysPath = (code: string, customer: string) => `/api/v1/admin/modules/${code}/customers/${customer}/keys`;

/** Accepted within a second, which only an invalidation can explain with an hour-long TTL. */
const acceptedSoon = (node: TestPlatform, token: string) => eventually(async () => (await rooms(node, token)).status === 200, 1000, 10);

test('node B caches keys: a key written to the database behind its back is not seen until a refresh through node A', async () => {
  const tenant = await nodeA.tenant();
  const alice = await tenant.account();
  expectOk(await rooms(nodeB, alice.token)); // node B now caches [tenant.kid]

  // A key inserted directly (no invalidation published).
  const sneaky = await generateSigningKey();
  await nodeA.db.query(
    `insert into customer_keys (id, module_code, customer_account_id, kid, algorithm, public_key_pem, fingerprint)
     values ($1, $2, $3, 'sneaky', 'ES256', $4, 'sneaky')`,
    [newId(), tenant.moduleCode, tenant.customer, sneaky.publicKeyPem],
  );
  const token = await tenant.sign({}, { subject: alice.id, kid: 'sneaky', privateKey: sneaky.privateKey });
  expectError(await rooms(nodeB, token), 401, 'unknown_signing_key'); // stale cache on B
  expectOk(await rooms(nodeA, token)); // A had not cached this customer yet

  const refreshed = await call(nodeA.chatUrl, 'POST', `${keysPath(tenant.moduleCode, tenant.customer)}/refresh`, { token: admin });
  expect(refreshed.status).toBe(200);
  await acceptedSoon(nodeB, token);
  // The old key keeps working after the reload.
  expectOk(await rooms(nodeB, alice.token));
});

test('a key registered through node A is accepted by node B at once', async () => {
  const tenant = await nodeA.tenant();
  const alice = await tenant.account();
  expectOk(await rooms(nodeB, alice.token));
  expectOk(await rooms(nodeA, alice.token));

  const fresh = await generateSigningKey();
  const token = await tenant.sign({}, { subject: alice.id, kid: 'rotated-1', privateKey: fresh.privateKey });
  expectError(await rooms(nodeB, token), 401, 'unknown_signing_key');

  const res = await call(nodeA.chatUrl, 'POST', keysPath(tenant.moduleCode, tenant.customer), {
    token: admin,
    body: { kid: 'rotated-1', algorithm: 'ES256', publicKeyPem: fresh.publicKeyPem },
  });
  expectOk(res, 201);
  await acceptedSoon(nodeB, token);
  expectOk(await rooms(nodeA, token)); // the registering node dropped its own copy synchronously
});

test('an invalidation only drops the customer it names', async () => {
  const one = await nodeA.tenant();
  const two = await nodeA.tenant({ moduleCode: one.moduleCode });
  const a1 = await one.account();
  const a2 = await two.account();
  expectOk(await rooms(nodeB, a1.token));
  expectOk(await rooms(nodeB, a2.token));

  const sneaky = await generateSigningKey();
  await nodeA.db.query(
    `insert into customer_keys (id, module_code, customer_account_id, kid, algorithm, public_key_pem, fingerprint)
     values ($1, $2, $3, 'sneaky2', 'ES256', $4, 'sneaky2')`,
    [newId(), two.moduleCode, two.customer, sneaky.publicKeyPem],
  );
  const token = await two.sign({}, { subject: a2.id, kid: 'sneaky2', privateKey: sneaky.privateKey });
  // Refreshing customer one leaves customer two's (now stale) entry on B in place.
  expect((await call(nodeA.chatUrl, 'POST', `${keysPath(one.moduleCode, one.customer)}/refresh`, { token: admin })).status).toBe(200);
  await new Promise((r) => setTimeout(r, 100));
  expectError(await rooms(nodeB, token), 401, 'unknown_signing_key');
  expect((await call(nodeA.chatUrl, 'POST', `${keysPath(two.moduleCode, two.customer)}/refresh`, { token: admin })).status).toBe(200);
  await acceptedSoon(nodeB, token);
});
