// Bearer-JWT authentication over the real listener: every refusal has its own code, the account row is read on
// every call (status changes bite at once), and the platform-admin claim is honoured only from the platform module.
import { SignJWT } from 'jose';
import { ManualClock } from '../../platform/clock.js';
import { newId } from '../../platform/ids.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { call, generateSigningKey, startTestPlatform, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';

let platform: TestPlatform;
let base: string;
let tenant: TestTenant;
let admin: string;

beforeAll(async () => {
  platform = await startTestPlatform();
  base = platform.chatUrl;
  tenant = await platform.tenant();
  admin = await platform.adminToken();
});
afterAll(async () => {
  await platform.stop();
});

const listRooms = (token?: string, headers: Record<string, string> = {}) => call(base, 'GET', '/api/v1/rooms', { token, headers });

describe('token refusals', () => {
  test('a valid token is accepted', async () => {
    const alice = await tenant.account();
    expectOk(await listRooms(alice.token));
  });

  test('no Authorization header is 401 unauthenticated', async () => {
    const res = await listRooms();
    expectError(res, 401, 'unauthenticated', 'header.authorization');
  });

  test('authentication runs before validation: a bad body without a token is still 401', async () => {
    const res = await call(base, 'POST', '/api/v1/rooms', { body: { nonsense: true } });
    expectError(res, 401, 'unauthenticated');
  });

  test.each([
    ['a non-Bearer scheme', 'Basic dXNlcjpwYXNz'],
    ['Bearer with nothing after it', 'Bearer '],
    ['a token that is not a JWS', 'Bearer abc'],
    ['three segments of garbage', 'Bearer aaa.bbb.ccc'],
  ])('%s is 401 token_malformed', async (_what, header) => {
    const res = await listRooms(undefined, { authorization: header });
    expectError(res, 401, 'token_malformed', 'header.authorization');
  });

  test('an expired token is 401 token_expired', async () => {
    const alice = await tenant.account();
    const token = await tenant.sign({}, { subject: alice.id, expiresIn: '-10m' });
    expectError(await listRooms(token), 401, 'token_expired');
  });

  test('a token within the 30 s clock tolerance is still accepted', async () => {
    const alice = await tenant.account();
    const token = await tenant.sign({}, { subject: alice.id, expiresIn: '-5s' });
    expectOk(await listRooms(token));
  });

  test('a token without exp is token_invalid', async () => {
    const alice = await tenant.account();
    const token = await tenant.sign({}, { subject: alice.id, expiresIn: null });
    expectError(await listRooms(token), 401, 'token_invalid');
  });

  test('a token signed by a foreign key under the registered kid is token_invalid', async () => {
    const alice = await tenant.account();
    const { privateKey } = await generateSigningKey();
    const token = await tenant.sign({}, { subject: alice.id, privateKey });
    expectError(await listRooms(token), 401, 'token_invalid');
  });

  test('an unknown kid is 401 unknown_signing_key', async () => {
    const alice = await tenant.account();
    const token = await tenant.sign({}, { subject: alice.id, kid: 'no-such-kid' });
    expectError(await listRooms(token), 401, 'unknown_signing_key');
  });

  test('a customer with no registered key is 401 unknown_signing_key', async () => {
    const alice = await tenant.account();
    const token = await tenant.sign({ cid: 'c-unregistered' }, { subject: alice.id });
    expectError(await listRooms(token), 401, 'unknown_signing_key');
  });

  test('an issuer that is no module is 401 unknown_signing_key', async () => {
    const alice = await tenant.account();
    const token = await tenant.sign({}, { subject: alice.id, issuer: 'mnosuchmodule' });
    expectError(await listRooms(token), 401, 'unknown_signing_key');
  });

  test('a token without iss/cid is token_invalid', async () => {
    const alice = await tenant.account();
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: tenant.kid })
      .setSubject(alice.id)
      .setAudience(platform.config.jwtAudience)
      .setExpirationTime('1h')
      .sign(tenant.privateKey);
    expectError(await listRooms(token), 401, 'token_invalid');
  });

  test('a wrong audience is 401 token_audience_mismatch', async () => {
    const alice = await tenant.account();
    const token = await tenant.sign({}, { subject: alice.id, audience: 'billing' });
    const res = await listRooms(token);
    expectError(res, 401, 'token_audience_mismatch');
    expect(res.body.error.message).toContain(platform.config.jwtAudience);
  });

  test('a subject that is not a uuid is token_invalid', async () => {
    const token = await tenant.sign({}, { subject: 'alice' });
    expectError(await listRooms(token), 401, 'token_invalid');
  });

  test('a subject that is no registered account is 401 account_unknown', async () => {
    const token = await tenant.sign({}, { subject: newId() });
    expectError(await listRooms(token), 401, 'account_unknown');
  });

  test("module A's token for an account of module B (same customer) is token_invalid", async () => {
    const a = await platform.tenant();
    const b = await platform.tenant({ customer: a.customer });
    const bob = await b.account();
    const token = await a.sign({}, { subject: bob.id });
    expectError(await listRooms(token), 401, 'token_invalid');
  });

  test("a customer's key does not vouch for another customer's account of the same module", async () => {
    const a = await platform.tenant();
    const b = await platform.tenant({ moduleCode: a.moduleCode });
    const bob = await b.account();
    expectOk(await listRooms(bob.token));
    const token = await a.sign({}, { subject: bob.id });
    expectError(await listRooms(token), 401, 'token_invalid');
  });

  test('an upper-case sub is the same caller as the stored lower-case id (one self room, not two)', async () => {
    const alice = await tenant.account();
    const upper = await tenant.sign({}, { subject: alice.id.toUpperCase() });
    const a = await call(base, 'POST', '/api/v1/rooms/self', { token: alice.token });
    const b = await call(base, 'POST', '/api/v1/rooms/self', { token: upper });
    expectOk(a);
    expectOk(b);
    expect(b.body.data.id).toBe(a.body.data.id);
    expect(b.body.data.createdBy).toBe(alice.id);
    expect(await count(platform.db, "select count(*) as n from rooms where type = 'SELF' and created_by = $1", [alice.id])).toBe(1);
  });

  test('a refused token creates nothing', async () => {
    const alice = await tenant.account();
    const token = await tenant.sign({}, { subject: alice.id, audience: 'other' });
    const res = await call(base, 'POST', '/api/v1/rooms', { token, body: { type: 'GROUP', name: 'nope' } });
    expectError(res, 401, 'token_audience_mismatch');
    expect(await count(platform.db, 'select count(*) as n from rooms where created_by = $1', [alice.id])).toBe(0);
  });
});

describe('account status', () => {
  const setStatus = (id: string, status: string) =>
    call(base, 'PATCH', `/api/v1/accounts/${id}/status`, { token: admin, body: { status } });

  test('deactivated and banned accounts are refused on the very next call, and accepted again after reactivation', async () => {
    const alice = await tenant.account();
    expectOk(await listRooms(alice.token));

    const deactivated = await setStatus(alice.id, 'DEACTIVATED');
    expectOk(deactivated);
    expect(deactivated.body.data.status).toBe('DEACTIVATED');
    expectError(await listRooms(alice.token), 403, 'account_deactivated');
    // The same unexpired token is refused on writes as well, and nothing is written.
    const write = await call(base, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'GROUP', name: 'x' } });
    expectError(write, 403, 'account_deactivated');
    expect(await count(platform.db, 'select count(*) as n from rooms where created_by = $1', [alice.id])).toBe(0);

    expectOk(await setStatus(alice.id, 'BANNED'));
    expectError(await listRooms(alice.token), 403, 'account_banned');

    expectOk(await setStatus(alice.id, 'ACTIVE'));
    expectOk(await listRooms(alice.token));
  });

  test('a status change writes one outbox event, a no-op change none', async () => {
    const alice = await tenant.account();
    const events = () =>
      count(platform.db, "select count(*) as n from outbox where topic = 'account.status_changed' and payload->>'accountId' = $1", [
        alice.id,
      ]);
    expectOk(await setStatus(alice.id, 'DEACTIVATED'));
    expectOk(await setStatus(alice.id, 'DEACTIVATED'));
    expect(await events()).toBe(1);
  });

  test('an invalid status value is validation_failed at body.status', async () => {
    const alice = await tenant.account();
    expectError(await setStatus(alice.id, 'SUSPENDED'), 400, 'validation_failed', 'body.status');
    expect(await count(platform.db, "select count(*) as n from accounts where id = $1 and status = 'ACTIVE'", [alice.id])).toBe(1);
  });
});

describe('platform administrators', () => {
  test('a non-admin calling admin operations is 403 platform_admin_required', async () => {
    const alice = await tenant.account();
    expectError(await call(base, 'GET', '/api/v1/admin/modules', { token: alice.token }), 403, 'platform_admin_required');
    const create = await call(base, 'POST', '/api/v1/admin/modules', {
      token: alice.token,
      body: { code: `x${newId().slice(0, 8)}`, name: 'x' },
    });
    expectError(create, 403, 'platform_admin_required');
    // Account administration is open to a module's SERVICE accounts too, so a USER gets its own refusal.
    const status = await call(base, 'PATCH', `/api/v1/accounts/${alice.id}/status`, { token: alice.token, body: { status: 'BANNED' } });
    expectError(status, 403, 'account_admin_required');
    expect(await count(platform.db, "select count(*) as n from accounts where id = $1 and status = 'ACTIVE'", [alice.id])).toBe(1);
  });

  test('a pa=true claim from a module other than the platform module is not honoured', async () => {
    const alice = await tenant.account();
    const token = await tenant.sign({ pa: true }, { subject: alice.id });
    expectError(await call(base, 'GET', '/api/v1/admin/modules', { token }), 403, 'platform_admin_required');
    const target = await tenant.account();
    const res = await call(base, 'PATCH', `/api/v1/accounts/${target.id}/status`, { token, body: { status: 'BANNED' } });
    expectError(res, 403, 'account_admin_required');
    expect(await count(platform.db, "select count(*) as n from accounts where id = $1 and status = 'ACTIVE'", [target.id])).toBe(1);
  });

  test('a platform-module token without pa=true is not an administrator', async () => {
    const p = await platform.tenant({ moduleCode: platform.config.platformModule });
    const user = await p.account();
    expectError(await call(base, 'GET', '/api/v1/admin/modules', { token: user.token }), 403, 'platform_admin_required');
    const truthy = await p.sign({ pa: 'true' }, { subject: user.id });
    expectError(await call(base, 'GET', '/api/v1/admin/modules', { token: truthy }), 403, 'platform_admin_required');
  });

  test('the platform admin token is honoured', async () => {
    expectOk(await call(base, 'GET', '/api/v1/admin/modules', { token: admin }));
  });
});

describe('expiry against the injected clock', () => {
  test('a token accepted now is token_expired once the clock passes exp (plus tolerance)', async () => {
    const clock = new ManualClock(new Date());
    const node = await startTestPlatform({ services: ['chat'] }, clock);
    try {
      const t = await node.tenant();
      const alice = await t.account();
      // exp is taken from the injected clock, not from the wall clock that signing reads, so a slow start cannot
      // shift it.
      const token = await t.sign({}, { subject: alice.id, expiresIn: Math.floor(clock.now().getTime() / 1000) + 600 });
      expectOk(await call(node.chatUrl, 'GET', '/api/v1/rooms', { token }));
      clock.advance(10 * 60_000 + 20_000);
      expectOk(await call(node.chatUrl, 'GET', '/api/v1/rooms', { token }));
      clock.advance(15_000);
      expectError(await call(node.chatUrl, 'GET', '/api/v1/rooms', { token }), 401, 'token_expired');
    } finally {
      await node.stop();
    }
  });
});
