// Broadcasts over the real listener, in a database of their own so that "nothing was saved" can be checked on the
// whole table: platform admins only, no audience on the untargeted operation, targeted sends refused as a whole
// for a missing, empty or unknown module list, the per-user feed with its unread count and the read mark.
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import {
  call,
  isolatedInfra,
  startTestPlatform,
  type TestAccount,
  type TestPlatform,
  type TestTenant,
} from '../../../test/support/platform.js';

let infra: Awaited<ReturnType<typeof isolatedInfra>>;
let platform: TestPlatform;
let base: string;
let admin: TestAccount;
let sales: TestTenant;
let support: TestTenant;

beforeAll(async () => {
  infra = await isolatedInfra();
  platform = await startTestPlatform({ databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl, services: ['chat'] });
  base = platform.chatUrl;
  [sales, support] = await Promise.all([platform.tenant({ moduleCode: 'sales' }), platform.tenant({ moduleCode: 'support' })]);
  const adminTenant = await platform.tenant({ moduleCode: platform.config.platformModule });
  const id = (await adminTenant.account()).id;
  admin = { id, token: await adminTenant.sign({ pa: true }, { subject: id }) };
});
afterAll(async () => {
  await platform?.stop();
  await infra?.drop();
});

const post = (who: TestAccount, path: string, body?: unknown) =>
  call(base, 'POST', `/api/v1${path}`, { token: who.token, ...(body === undefined ? {} : { body }) });
const feed = (who: TestAccount, query = '') => call(base, 'GET', `/api/v1/me/broadcasts${query}`, { token: who.token });
const unread = (who: TestAccount) => call(base, 'GET', '/api/v1/me/broadcasts/unread-count', { token: who.token });
/** Sends a broadcast as the admin (targeted at the modules when given, to everyone otherwise); its id. */
async function send(text: string, modules?: string[]): Promise<string> {
  const res = modules
    ? await post(admin, '/admin/broadcasts/targeted', { text, audience: { modules } })
    : await post(admin, '/admin/broadcasts', { text });
  return res.body.data.id as string;
}
const nothingSent = async () => {
  expect(await count(platform.db, 'select count(*) as n from broadcasts')).toBe(0);
  expect(await count(platform.db, "select count(*) as n from outbox where topic like 'broadcast.%'")).toBe(0);
};

describe('sending', () => {
  // First in the file: the table is still empty and must stay so.
  test('refused sends save and send nothing: a non-admin, an audience on the untargeted operation, a missing, empty or unknown module list', async () => {
    const user = await sales.account();
    expectError(await post(user, '/admin/broadcasts', { text: 'hi' }), 403, 'platform_admin_required');
    expectError(
      await post(user, '/admin/broadcasts/targeted', { text: 'hi', audience: { modules: ['sales'] } }),
      403,
      'platform_admin_required',
    );
    expectError(
      await post(admin, '/admin/broadcasts', { text: 'hi', audience: { modules: ['sales'] } }),
      400,
      'validation_failed',
      'body.audience',
    );
    expectError(await post(admin, '/admin/broadcasts', { text: 'hi', audience: null }), 400, 'validation_failed', 'body.audience');
    expectError(await post(admin, '/admin/broadcasts/targeted', { text: 'hi' }), 400, 'validation_failed', 'body.audience');
    expectError(
      await post(admin, '/admin/broadcasts/targeted', { text: 'hi', audience: {} }),
      400,
      'validation_failed',
      'body.audience.modules',
    );
    expectError(
      await post(admin, '/admin/broadcasts/targeted', { text: 'hi', audience: { modules: [] } }),
      400,
      'validation_failed',
      'body.audience.modules',
    );
    const unknown = await post(admin, '/admin/broadcasts/targeted', {
      text: 'hi',
      audience: { modules: ['sales', 'nosuchmodule', 'support'] },
    });
    expectError(unknown, 400, 'validation_failed', 'body.audience.modules[1]');
    expect(unknown.body.error.details).toHaveLength(1);
    expectError(await post(admin, '/admin/broadcasts', { text: '' }), 400, 'validation_failed', 'body.text');
    await nothingSent();
  });

  test('a broadcast to everyone and a targeted one: the answer, the row and broadcast.created with its audience', async () => {
    const all = await post(admin, '/admin/broadcasts', { title: 'Maintenance', text: 'Tonight 22:00' });
    expectOk(all);
    expect(all.body.data).toMatchObject({
      title: 'Maintenance',
      text: 'Tonight 22:00',
      audience: { kind: 'all', modules: null },
      createdBy: admin.id,
    });
    const targeted = await post(admin, '/admin/broadcasts/targeted', { text: 'Sales kick-off', audience: { modules: ['sales', 'sales'] } });
    expectOk(targeted);
    expect(targeted.body.data).toMatchObject({ title: null, audience: { kind: 'modules', modules: ['sales'] } });
    const { rows } = await platform.db.query<{ payload: Record<string, unknown> }>(
      "select payload from outbox where topic = 'broadcast.created' order by id",
    );
    expect(rows.map((r) => [r.payload.broadcastId, r.payload.audience])).toEqual([
      [all.body.data.id, { kind: 'broadcast', modules: 'all' }],
      [targeted.body.data.id, { kind: 'broadcast', modules: ['sales'] }],
    ]);
  });
});

describe('the feed', () => {
  test('each user sees what was addressed to its module since it registered, with an unread count; the read mark moves forward only', async () => {
    const [ann, bob] = await Promise.all([sales.account(), support.account()]);
    const b1 = await send('one for all');
    const b2 = await send('sales only', ['sales']);
    const b3 = await send('support only', ['support']);
    const b4 = await send('both', ['sales', 'support']);

    const annFeed = await feed(ann);
    expectOk(annFeed);
    expect(annFeed.body.data.map((b: { id: string }) => b.id)).toEqual([b4, b2, b1]);
    expect(annFeed.body.meta).toMatchObject({ hasMore: false, nextCursor: null });
    expect((await unread(ann)).body.data).toEqual({ lastReadId: null, unreadCount: 3 });
    expect((await feed(bob)).body.data.map((b: { id: string }) => b.id)).toEqual([b4, b3, b1]);

    // Up to a given broadcast, then backwards (no move), then the newest (null).
    const up = await post(ann, '/me/broadcasts/read', { id: b2 });
    expectOk(up);
    expect(up.body.data).toEqual({ lastReadId: b2, unreadCount: 1 });
    expect((await post(ann, '/me/broadcasts/read', { id: b1 })).body.data).toEqual({ lastReadId: b2, unreadCount: 1 });
    expect((await unread(ann)).body.data).toEqual({ lastReadId: b2, unreadCount: 1 });
    const page = await feed(ann, '?limit=2');
    expect(page.body.data.map((b: { id: string; read: boolean }) => [b.id, b.read])).toEqual([
      [b4, false],
      [b2, true],
    ]);
    const rest = await feed(ann, `?limit=2&cursor=${encodeURIComponent(page.body.meta.nextCursor)}`);
    expect(rest.body.data.map((b: { id: string; read: boolean }) => [b.id, b.read])).toEqual([[b1, true]]);
    expect(rest.body.meta.hasMore).toBe(false);
    expect((await post(ann, '/me/broadcasts/read', { id: null })).body.data).toEqual({ lastReadId: b4, unreadCount: 0 });
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'broadcast.read' and payload->>'accountId' = $1", [ann.id]),
    ).toBe(2);
    // Bob's mark is his own; no body means the newest.
    expect((await unread(bob)).body.data.unreadCount).toBe(3);
    expect((await post(bob, '/me/broadcasts/read')).body.data).toEqual({ lastReadId: b4, unreadCount: 0 });

    // Another module's broadcast, or an unknown one, is not in the caller's feed; nothing moves.
    expectError(await post(ann, '/me/broadcasts/read', { id: b3 }), 404, 'broadcast_not_found');
    expectError(await post(ann, '/me/broadcasts/read', { id: '00000000-0000-4000-8000-000000000000' }), 404, 'broadcast_not_found');
    expectError(await feed(ann, '?cursor=nope'), 400, 'invalid_cursor', 'query.cursor');

    // Someone registered afterwards starts with an empty feed and sees only what comes next.
    const late = await sales.account();
    expect((await feed(late)).body.data).toEqual([]);
    expect((await unread(late)).body.data).toEqual({ lastReadId: null, unreadCount: 0 });
    expect((await post(late, '/me/broadcasts/read')).body.data).toEqual({ lastReadId: null, unreadCount: 0 });
    const b5 = await send('welcome', ['sales']);
    expect((await feed(late)).body.data).toMatchObject([
      { id: b5, read: false, text: 'welcome', audience: { kind: 'modules', modules: ['sales'] } },
    ]);
    expect((await unread(late)).body.data.unreadCount).toBe(1);
    expect((await unread(ann)).body.data.unreadCount).toBe(1);
  });
});
