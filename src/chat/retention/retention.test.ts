// The retention endpoints over the real listener: who may set a customer's default and a room's own, the bounds
// of days (400 validation_failed naming the field, nothing changed), and a room never longer than its customer.
import { chatFixtures } from '../../../test/helpers/chat-fixtures.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { call, startTestPlatform, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';

let platform: TestPlatform;
let tenant: TestTenant;
let fx: ReturnType<typeof chatFixtures>;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] });
  tenant = await platform.tenant();
  fx = chatFixtures(platform, tenant);
});
afterAll(async () => {
  await platform.stop();
});

const admin = async (method: string, query: string, body?: unknown) =>
  call(platform.chatUrl, method, `/api/v1/admin/retention${query}`, {
    token: await platform.adminToken(),
    ...(body === undefined ? {} : { body }),
  });
const ofTenant = (t: TestTenant) => `?moduleCode=${t.moduleCode}&customerAccountId=${encodeURIComponent(t.customer)}`;
const policies = () => count(platform.db, 'select (select count(*) from customer_retention) + (select count(*) from room_retention) as n');

describe("a customer's default", () => {
  test('a platform administrator names the customer; days from 1 to 3,650 or null', async () => {
    const t = await platform.tenant();
    const none = await admin('GET', ofTenant(t));
    expectOk(none);
    expect(none.body.data).toEqual({ moduleCode: t.moduleCode, customerAccountId: t.customer, days: null, updatedAt: null });
    const set = await admin('PUT', ofTenant(t), { days: 30 });
    expectOk(set);
    expect(set.body.data).toMatchObject({ days: 30, updatedAt: expect.any(String) });
    expect((await admin('GET', ofTenant(t))).body.data.days).toBe(30);
    expect((await admin('PUT', ofTenant(t), { days: 3650 })).body.data.days).toBe(3650);
    expect((await admin('PUT', ofTenant(t), { days: null })).body.data).toMatchObject({ days: null, updatedAt: null });
    expectError(await admin('GET', `?moduleCode=${t.moduleCode}`), 400, 'validation_failed', 'query.customerAccountId');
    expectError(await admin('GET', ''), 400, 'validation_failed', 'query.moduleCode');
  });

  test.each([0, 3651, -1, 1.5, '30', true])('days %p is 400 validation_failed naming body.days and changes nothing', async (days) => {
    const t = await platform.tenant();
    const before = await policies();
    expectError(await admin('PUT', ofTenant(t), { days }), 400, 'validation_failed', 'body.days');
    expect(await policies()).toBe(before);
  });

  test("a module's SERVICE account sets its own customer's default without naming it; another customer is 403", async () => {
    const t = await platform.tenant();
    const service = await t.account();
    const other = await platform.tenant();
    const as = (method: string, query: string, body?: unknown) =>
      call(platform.chatUrl, method, `/api/v1/admin/retention${query}`, { token: service.token, body });
    expectError(await as('PUT', '', { days: 10 }), 403, 'account_admin_required');
    await platform.db.query(`update accounts set account_type = 'SERVICE' where id = $1`, [service.id]);
    const set = await as('PUT', '', { days: 10 });
    expectOk(set);
    expect(set.body.data).toMatchObject({ moduleCode: t.moduleCode, customerAccountId: t.customer, days: 10 });
    expect((await as('GET', ofTenant(t))).body.data.days).toBe(10);
    expectError(await as('PUT', ofTenant(other), { days: 5 }), 403, 'forbidden');
    expect((await admin('GET', ofTenant(other))).body.data.days).toBeNull();
  });
});

describe("a room's own", () => {
  test('members read it; owners and admins set it, never longer than the default; null inherits', async () => {
    const c = await fx.cast();
    const path = `/rooms/${c.roomId}/retention`;
    const read = await fx.api(c.member, 'GET', path);
    expectOk(read);
    expect(read.body.data).toEqual({ roomId: c.roomId, days: null, customerDays: null, effectiveDays: null });
    expectError(await fx.api(c.member, 'PUT', path, { days: 5 }), 403, 'forbidden');
    expectError(await fx.api(c.outsider, 'GET', path), 404, 'room_not_found');
    expect((await fx.api(c.admin, 'PUT', path, { days: 400 })).body.data).toMatchObject({ days: 400, effectiveDays: 400 });

    expectOk(await admin('PUT', ofTenant(tenant), { days: 30 }));
    // a default lowered below the room's own binds the room too
    expect((await fx.api(c.member, 'GET', path)).body.data).toEqual({ roomId: c.roomId, days: 400, customerDays: 30, effectiveDays: 30 });
    expectError(await fx.api(c.owner, 'PUT', path, { days: 31 }), 400, 'validation_failed', 'body.days');
    expectError(await fx.api(c.owner, 'PUT', path, { days: 0 }), 400, 'validation_failed', 'body.days');
    expect((await fx.api(c.owner, 'PUT', path, { days: 7 })).body.data).toEqual({
      roomId: c.roomId,
      days: 7,
      customerDays: 30,
      effectiveDays: 7,
    });
    expect((await fx.api(c.owner, 'PUT', path, { days: null })).body.data).toEqual({
      roomId: c.roomId,
      days: null,
      customerDays: 30,
      effectiveDays: 30,
    });
    expectOk(await admin('PUT', ofTenant(tenant), { days: null }));
  });
});
