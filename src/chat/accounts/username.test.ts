// Usernames: optional, set at registration or by the metadata update, unique per customer whatever their case.
import { newId } from '../../platform/ids.js';
import { expectError, expectOk } from '../../../test/helpers/expect.js';
import { call, startTestPlatform, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';

let platform: TestPlatform;
let admin: string;
let tenant: TestTenant;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] });
  admin = await platform.adminToken();
  tenant = await platform.tenant();
});
afterAll(async () => {
  await platform.stop();
});

const register = (t: TestTenant, body: Record<string, unknown>) =>
  call(platform.chatUrl, 'POST', '/api/v1/accounts/register', {
    token: admin,
    body: { moduleCode: t.moduleCode, customerAccountId: t.customer, displayName: 'X', ...body },
  });
const patchMetadata = (id: string, body: Record<string, unknown>) =>
  call(platform.chatUrl, 'PATCH', `/api/v1/accounts/${id}/metadata`, { token: admin, body });
const usernameOf = async (id: string) =>
  (await platform.db.query<{ username: string | null }>('select username from accounts where id = $1', [id])).rows[0]?.username;

test('set at registration, answered as given; absent keeps and null clears on the metadata update', async () => {
  const id = newId();
  const res = await register(tenant, { id, username: 'Ann.Lee' });
  expectOk(res);
  expect(res.body.data.username).toBe('Ann.Lee');
  expectOk(await patchMetadata(id, { team: 'core' }));
  expect(await usernameOf(id)).toBe('Ann.Lee');
  const cleared = await patchMetadata(id, { username: null });
  expectOk(cleared);
  expect(cleared.body.data.username).toBeNull();
  const set = await patchMetadata(id, { username: 'ann_2' });
  expect(set.body.data.username).toBe('ann_2');
  const plain = await register(tenant, { id: newId() });
  expect(plain.body.data.username).toBeNull();
});

test('a name another account of the customer holds, in any case, is 409 username_taken and changes nothing', async () => {
  const holder = newId();
  expectOk(await register(tenant, { id: holder, username: 'bob-k' }));
  const newcomer = newId();
  expectError(await register(tenant, { id: newcomer, username: 'BOB-K' }), 409, 'username_taken');
  expect(await usernameOf(newcomer)).toBeUndefined();
  const other = newId();
  expectOk(await register(tenant, { id: other, username: 'carol' }));
  expectError(await patchMetadata(other, { username: 'Bob-K', team: 'changed' }), 409, 'username_taken');
  const { rows } = await platform.db.query('select username, team from accounts where id = $1', [other]);
  expect(rows[0]).toEqual({ username: 'carol', team: null });
  // the holder may write its own name again in another case
  expect((await patchMetadata(holder, { username: 'Bob-K' })).body.data.username).toBe('Bob-K');
});

test('another customer may hold the same name', async () => {
  expectOk(await register(tenant, { id: newId(), username: 'dana' }));
  const elsewhere = await platform.tenant();
  expectOk(await register(elsewhere, { id: newId(), username: 'Dana' }));
});

test.each(['a', '-dash', 'has space', 'x'.repeat(33), 'ünï'])('%j is 400 validation_failed and stores nothing', async (username) => {
  const id = newId();
  expectError(await register(tenant, { id, username }), 400, 'validation_failed');
  expect(await usernameOf(id)).toBeUndefined();
});
