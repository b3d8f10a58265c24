// Accounts pushed by the core platform or their own module: register is an upsert within one module and customer,
// metadata follows "absent keeps, null clears, tags replace", unknown ids are 404, and a module's SERVICE account
// administers the accounts of its own module and customer only.
import { newId } from '../../platform/ids.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { call, startTestPlatform, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';

let platform: TestPlatform;
let base: string;
let admin: string;
let tenant: TestTenant;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] });
  base = platform.chatUrl;
  admin = await platform.adminToken();
  tenant = await platform.tenant();
});
afterAll(async () => {
  await platform.stop();
});

const register = (body: Record<string, unknown>, token = admin) => call(base, 'POST', '/api/v1/accounts/register', { token, body });
const patchMetadata = (id: string, body: Record<string, unknown>) =>
  call(base, 'PATCH', `/api/v1/accounts/${id}/metadata`, { token: admin, body });
const row = async (id: string) => (await platform.db.query('select * from accounts where id = $1', [id])).rows[0];

describe('register', () => {
  test('creates an ACTIVE USER account whose token then works', async () => {
    const id = newId();
    const res = await register({ id, moduleCode: tenant.moduleCode, customerAccountId: tenant.customer, displayName: 'Alice' });
    expectOk(res);
    expect(res.body.data).toMatchObject({
      id,
      moduleCode: tenant.moduleCode,
      customerAccountId: tenant.customer,
      displayName: 'Alice',
      avatarUrl: null,
      accountType: 'USER',
      status: 'ACTIVE',
      metadata: { team: null, department: null, role: null, tags: [] },
    });
    expect(await row(id)).toMatchObject({ display_name: 'Alice', status: 'ACTIVE' });
    const token = await tenant.sign({}, { subject: id });
    expectOk(await call(base, 'GET', '/api/v1/rooms', { token }));
  });

  test('re-register upserts: displayName, avatar, type and metadata change, the id and createdAt stay', async () => {
    const id = newId();
    const first = await register({
      id,
      moduleCode: tenant.moduleCode,
      customerAccountId: tenant.customer,
      displayName: 'Bob',
      metadata: { team: 'core', department: 'eng', tags: ['a', 'b'] },
    });
    expectOk(first);
    const second = await register({
      id,
      moduleCode: tenant.moduleCode,
      customerAccountId: tenant.customer,
      displayName: 'Robert',
      avatarUrl: 'https://example.com/bob.png',
      accountType: 'BOT',
      metadata: { team: null, role: 'lead', tags: ['c'] },
    });
    expectOk(second);
    expect(second.body.data).toMatchObject({
      id,
      displayName: 'Robert',
      avatarUrl: 'https://example.com/bob.png',
      accountType: 'BOT',
      metadata: { team: null, department: 'eng', role: 'lead', tags: ['c'] },
      createdAt: first.body.data.createdAt,
    });
    expect(Date.parse(second.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(first.body.data.updatedAt));
    expect(await count(platform.db, 'select count(*) as n from accounts where id = $1', [id])).toBe(1);
    expect(await row(id)).toMatchObject({ display_name: 'Robert', team: null, department: 'eng', role: 'lead', tags: ['c'] });
  });

  test('re-register does not change the status of a deactivated account', async () => {
    const id = newId();
    expectOk(await register({ id, moduleCode: tenant.moduleCode, customerAccountId: tenant.customer, displayName: 'Dee' }));
    expectOk(await call(base, 'PATCH', `/api/v1/accounts/${id}/status`, { token: admin, body: { status: 'BANNED' } }));
    const again = await register({ id, moduleCode: tenant.moduleCode, customerAccountId: tenant.customer, displayName: 'Dee 2' });
    expectOk(again);
    expect(again.body.data.status).toBe('BANNED');
  });

  test('the same id under another module or customer is 409 account_conflict and changes nothing', async () => {
    const id = newId();
    expectOk(await register({ id, moduleCode: tenant.moduleCode, customerAccountId: tenant.customer, displayName: 'Carol' }));
    const other = await platform.tenant();
    const otherModule = await register({ id, moduleCode: other.moduleCode, customerAccountId: tenant.customer, displayName: 'Mallory' });
    expectError(otherModule, 409, 'account_conflict');
    const otherCustomer = await register({ id, moduleCode: tenant.moduleCode, customerAccountId: 'c-elsewhere', displayName: 'Mallory' });
    expectError(otherCustomer, 409, 'account_conflict');
    expect(await row(id)).toMatchObject({ module_code: tenant.moduleCode, customer_account_id: tenant.customer, display_name: 'Carol' });
  });

  test('an unknown moduleCode is 400 at body.moduleCode and creates nothing', async () => {
    const id = newId();
    const res = await register({ id, moduleCode: 'mnosuchmodule', customerAccountId: tenant.customer, displayName: 'Nobody' });
    expectError(res, 400, 'validation_failed', 'body.moduleCode');
    expect(await row(id)).toBeUndefined();
  });

  test('concurrent registrations of one new id create exactly one account', async () => {
    const id = newId();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        register({ id, moduleCode: tenant.moduleCode, customerAccountId: tenant.customer, displayName: `Racer ${i}` }),
      ),
    );
    // Every call either upserted or lost the insert race; none may fail with an internal error.
    for (const r of results) expect(r.status).toBe(200);
    expect(await count(platform.db, 'select count(*) as n from accounts where id = $1', [id])).toBe(1);
  });

  test.each([
    [{ displayName: '' }, 'body.displayName'],
    [{ displayName: 'x'.repeat(201) }, 'body.displayName'],
    [{ avatarUrl: 'not a uri' }, 'body.avatarUrl'],
    [{ accountType: 'ROBOT' }, 'body.accountType'],
    [{ metadata: { tags: [''] } }, 'body.metadata.tags.0'],
    [{ metadata: { unknown: 1 } }, 'body.metadata.unknown'],
    [{ id: 'not-a-uuid' }, 'body.id'],
    [{ customerAccountId: 'has space' }, 'body.customerAccountId'],
  ])('an invalid field %j is validation_failed at %s', async (patch, location) => {
    const id = newId();
    const res = await register({ id, moduleCode: tenant.moduleCode, customerAccountId: tenant.customer, displayName: 'Valid', ...patch });
    expectError(res, 400, 'validation_failed', location);
    expect(await row(id)).toBeUndefined();
  });

  test('a USER account cannot register accounts, even of its own module and customer', async () => {
    const alice = await tenant.account();
    const id = newId();
    const res = await register(
      { id, moduleCode: tenant.moduleCode, customerAccountId: tenant.customer, displayName: 'Sneaky' },
      alice.token,
    );
    expectError(res, 403, 'account_admin_required');
    expect(await row(id)).toBeUndefined();
  });
});

describe("a module's own token (a SERVICE account of the module and customer)", () => {
  /** A SERVICE account of `of`, registered by the platform administrator, with a token of its module. */
  const serviceOf = async (of: TestTenant) => {
    const id = newId();
    expectOk(
      await register({
        id,
        moduleCode: of.moduleCode,
        customerAccountId: of.customer,
        displayName: 'Module service',
        accountType: 'SERVICE',
      }),
    );
    return { id, token: await of.sign({}, { subject: id }) };
  };
  const as = (token: string, method: string, path: string, body: unknown) => call(base, method, `/api/v1/accounts${path}`, { token, body });

  test('registers, re-registers, sets status and metadata of accounts of its own module and customer', async () => {
    const service = await serviceOf(tenant);
    const id = newId();
    const created = await register(
      { id, moduleCode: tenant.moduleCode, customerAccountId: tenant.customer, displayName: 'Pushed' },
      service.token,
    );
    expectOk(created);
    expect(created.body.data).toMatchObject({ id, accountType: 'USER', status: 'ACTIVE' });
    expectOk(
      await register({ id, moduleCode: tenant.moduleCode, customerAccountId: tenant.customer, displayName: 'Renamed' }, service.token),
    );
    const status = await as(service.token, 'PATCH', `/${id}/status`, { status: 'DEACTIVATED' });
    expectOk(status);
    expect(status.body.data.status).toBe('DEACTIVATED');
    const metadata = await as(service.token, 'PATCH', `/${id}/metadata`, { team: 'Ops', tags: ['a'] });
    expectOk(metadata);
    expect(await row(id)).toMatchObject({ display_name: 'Renamed', status: 'DEACTIVATED', team: 'Ops', tags: ['a'] });
  });

  test("another module's or customer's account is 404 account_not_found, like a missing one, and changes nothing", async () => {
    const [otherModule, otherCustomer] = await Promise.all([platform.tenant(), platform.tenant({ moduleCode: tenant.moduleCode })]);
    const service = await serviceOf(tenant);
    for (const target of [await otherModule.account(), await otherCustomer.account()]) {
      expectError(await as(service.token, 'PATCH', `/${target.id}/status`, { status: 'BANNED' }), 404, 'account_not_found');
      expectError(await as(service.token, 'PATCH', `/${target.id}/metadata`, { team: 'Taken' }), 404, 'account_not_found');
      expect(await row(target.id)).toMatchObject({ status: 'ACTIVE', team: null });
    }
    expectError(await as(service.token, 'PATCH', `/${newId()}/status`, { status: 'BANNED' }), 404, 'account_not_found');
  });

  test('registering for another module or customer is 403 forbidden; an id of another module is 409 account_conflict', async () => {
    const other = await platform.tenant();
    const service = await serviceOf(tenant);
    const id = newId();
    for (const body of [
      { id, moduleCode: other.moduleCode, customerAccountId: other.customer, displayName: 'Elsewhere' },
      { id, moduleCode: tenant.moduleCode, customerAccountId: `${tenant.customer}-x`, displayName: 'Elsewhere' },
    ]) {
      expectError(await register(body, service.token), 403, 'forbidden');
    }
    expect(await row(id)).toBeUndefined();
    const theirs = await other.account();
    expectError(
      await register(
        { id: theirs.id, moduleCode: tenant.moduleCode, customerAccountId: tenant.customer, displayName: 'Hijack' },
        service.token,
      ),
      409,
      'account_conflict',
    );
    expect((await row(theirs.id)).module_code).toBe(other.moduleCode);
  });

  test('the platform administrator keeps every account; a pa claim from the module does not widen its reach', async () => {
    const other = await platform.tenant();
    const target = await other.account();
    expectOk(await as(admin, 'PATCH', `/${target.id}/metadata`, { team: 'Platform' }));
    const service = await serviceOf(tenant);
    const withClaim = await tenant.sign({ pa: true }, { subject: service.id });
    expectError(await as(withClaim, 'PATCH', `/${target.id}/metadata`, { team: 'Module' }), 404, 'account_not_found');
    expect((await row(target.id)).team).toBe('Platform');
  });

  test('a USER or BOT token is refused before its body is read, whatever the target', async () => {
    const [user, bot] = await Promise.all([tenant.account(), tenant.account()]);
    await platform.db.query(`update accounts set account_type = 'BOT' where id = $1`, [bot.id]);
    const target = await tenant.account();
    for (const who of [user, bot]) {
      expectError(await as(who.token, 'PATCH', `/${target.id}/status`, { status: 'BANNED' }), 403, 'account_admin_required');
      expectError(await as(who.token, 'PATCH', `/${target.id}/status`, { status: 'NOPE' }), 403, 'account_admin_required');
    }
    expect((await row(target.id)).status).toBe('ACTIVE');
  });
});

describe('metadata', () => {
  test('absent keeps, null clears, tags replace (deduplicated)', async () => {
    const id = newId();
    expectOk(
      await register({
        id,
        moduleCode: tenant.moduleCode,
        customerAccountId: tenant.customer,
        displayName: 'Meta',
        metadata: { team: 't1', department: 'd1', role: 'r1', tags: ['x', 'y'] },
      }),
    );
    const keep = await patchMetadata(id, {});
    expectOk(keep);
    expect(keep.body.data.metadata).toEqual({ team: 't1', department: 'd1', role: 'r1', tags: ['x', 'y'] });

    const clear = await patchMetadata(id, { team: null, role: 'r2' });
    expectOk(clear);
    expect(clear.body.data.metadata).toEqual({ team: null, department: 'd1', role: 'r2', tags: ['x', 'y'] });

    const tags = await patchMetadata(id, { tags: ['z', 'z', 'w'] });
    expectOk(tags);
    expect(tags.body.data.metadata).toEqual({ team: null, department: 'd1', role: 'r2', tags: ['z', 'w'] });

    const empty = await patchMetadata(id, { tags: [] });
    expect(empty.body.data.metadata.tags).toEqual([]);
    expect(await row(id)).toMatchObject({ team: null, department: 'd1', role: 'r2', tags: [] });
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'account.metadata_changed' and payload->>'accountId' = $1", [
        id,
      ]),
    ).toBe(4);
  });

  test('null tags and over-long values are refused and change nothing', async () => {
    const id = newId();
    expectOk(
      await register({
        id,
        moduleCode: tenant.moduleCode,
        customerAccountId: tenant.customer,
        displayName: 'M2',
        metadata: { team: 'keep', tags: ['t'] },
      }),
    );
    expectError(await patchMetadata(id, { tags: null }), 400, 'validation_failed', 'body.tags');
    expectError(await patchMetadata(id, { team: 'x'.repeat(101) }), 400, 'validation_failed', 'body.team');
    expectError(await patchMetadata(id, { tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }), 400, 'validation_failed', 'body.tags');
    expect(await row(id)).toMatchObject({ team: 'keep', tags: ['t'] });
  });

  test('unknown ids are 404 account_not_found for status and metadata', async () => {
    const missing = newId();
    expectError(
      await call(base, 'PATCH', `/api/v1/accounts/${missing}/status`, { token: admin, body: { status: 'BANNED' } }),
      404,
      'account_not_found',
    );
    expectError(await patchMetadata(missing, { team: 'x' }), 404, 'account_not_found');
    expect(await row(missing)).toBeUndefined();
    expect(await count(platform.db, "select count(*) as n from outbox where payload->>'accountId' = $1", [missing])).toBe(0);
  });
});
