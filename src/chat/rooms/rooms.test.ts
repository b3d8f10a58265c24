// Rooms over the real listener: creation and its membership checks, the get-or-create singletons under races,
// and the room list (keyset pagination, archived/q, include=members, standalone/channel filters).
import { newId } from '../../platform/ids.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';
import { alternate } from '../../../test/helpers/data.js';

let platform: TestPlatform;
let base: string;
let tenant: TestTenant;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] });
  base = platform.chatUrl;
  tenant = await platform.tenant();
});
afterAll(async () => {
  await platform.stop();
});

const createRoom = (who: TestAccount, body: Record<string, unknown>) => call(base, 'POST', '/api/v1/rooms', { token: who.token, body });
const roomsCreatedBy = (id: string) => count(platform.db, 'select count(*) as n from rooms where created_by = $1', [id]);
const membershipsOf = (id: string) => count(platform.db, 'select count(*) as n from room_members where account_id = $1', [id]);

async function listAll(who: TestAccount, query: string, limit: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  for (;;) {
    const res = await call(base, 'GET', `/api/v1/rooms?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
      token: who.token,
    });
    expectOk(res);
    pages++;
    expect(res.body.data.length).toBeLessThanOrEqual(limit);
    ids.push(...res.body.data.map((r: { id: string }) => r.id));
    if (!res.body.meta.hasMore) {
      expect(res.body.meta.nextCursor).toBeNull();
      return { ids, pages };
    }
    expect(res.body.data.length).toBe(limit);
    expect(typeof res.body.meta.nextCursor).toBe('string');
    cursor = res.body.meta.nextCursor;
    if (pages > 50) throw new Error('pagination does not end');
  }
}

describe('create', () => {
  test('a GROUP with members: 201, Location, memberCount, OWNER for the creator and MEMBER for the others', async () => {
    const [alice, bob, carol] = await Promise.all([tenant.account(), tenant.account(), tenant.account()]);
    const res = await createRoom(alice, { type: 'GROUP', name: 'Team', description: 'd', memberIds: [bob.id, carol.id, bob.id, alice.id] });
    expectOk(res, 201);
    const room = res.body.data;
    expect(res.headers.get('location')).toBe(`/api/v1/rooms/${room.id}`);
    expect(room).toMatchObject({
      type: 'GROUP',
      name: 'Team',
      description: 'd',
      addMemberPolicy: 'ALL_MEMBERS',
      channelId: null,
      memberCount: 3,
      createdBy: alice.id,
      myRole: 'OWNER',
      archived: false,
      membersTruncated: false,
    });
    expect(room.members).toBeUndefined();
    expect(room.lastActivityAt).toBe(room.createdAt);
    const { rows } = await platform.db.query('select account_id, role from room_members where room_id = $1 order by role, account_id', [
      room.id,
    ]);
    expect(rows).toEqual(
      expect.arrayContaining([
        { account_id: alice.id, role: 'OWNER' },
        { account_id: bob.id, role: 'MEMBER' },
        { account_id: carol.id, role: 'MEMBER' },
      ]),
    );
    expect(rows).toHaveLength(3);
    const asBob = await call(base, 'GET', `/api/v1/rooms/${room.id}`, { token: bob.token });
    expectOk(asBob);
    expect(asBob.body.data).toMatchObject({ id: room.id, myRole: 'MEMBER', memberCount: 3 });
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'room.created' and payload->>'roomId' = $1", [room.id]),
    ).toBe(1);
  });

  test('a room without members has the creator alone', async () => {
    const alice = await tenant.account();
    const res = await createRoom(alice, { type: 'CHANNEL', name: 'Solo', addMemberPolicy: 'ADMIN_ONLY' });
    expectOk(res, 201);
    expect(res.body.data).toMatchObject({
      type: 'CHANNEL',
      memberCount: 1,
      myRole: 'OWNER',
      addMemberPolicy: 'ADMIN_ONLY',
      description: null,
    });
  });

  test('members of another customer, unknown ids and inactive accounts are 400 at body.memberIds.N and nothing is created', async () => {
    const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
    const stranger = await (await platform.tenant()).account();
    const banned = await tenant.account({ status: 'BANNED' });
    const unknown = newId();
    const res = await createRoom(alice, { type: 'GROUP', name: 'Nope', memberIds: [bob.id, stranger.id, unknown, banned.id] });
    expectError(res, 400, 'validation_failed');
    expect(res.body.error.details.map((d: { location: string }) => d.location)).toEqual([
      'body.memberIds.1',
      'body.memberIds.2',
      'body.memberIds.3',
    ]);
    expect(await roomsCreatedBy(alice.id)).toBe(0);
    expect(await membershipsOf(alice.id)).toBe(0);
    expect(await membershipsOf(bob.id)).toBe(0);
  });

  test('the index in details is the index in the request, even when the caller or a duplicate comes first', async () => {
    const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
    const stranger = await (await platform.tenant()).account();
    const res = await createRoom(alice, { type: 'GROUP', name: 'Nope', memberIds: [alice.id, bob.id, bob.id, stranger.id] });
    expectError(res, 400, 'validation_failed');
    expect(res.body.error.details.map((d: { location: string }) => d.location)).toEqual(['body.memberIds.3']);
    expect(await roomsCreatedBy(alice.id)).toBe(0);
  });

  test('a GROUP refuses an account of another module of the same customer; CROSS_MODULE accepts it', async () => {
    const alice = await tenant.account();
    const otherModule = await platform.tenant({ customer: tenant.customer });
    const zed = await otherModule.account();
    const group = await createRoom(alice, { type: 'GROUP', name: 'Same module only', memberIds: [zed.id] });
    expectError(group, 400, 'validation_failed', 'body.memberIds.0');
    expect(await roomsCreatedBy(alice.id)).toBe(0);

    const cross = await createRoom(alice, { type: 'CROSS_MODULE', name: 'Across', memberIds: [zed.id] });
    expectOk(cross, 201);
    expect(cross.body.data).toMatchObject({ type: 'CROSS_MODULE', memberCount: 2 });
    expectOk(await call(base, 'GET', `/api/v1/rooms/${cross.body.data.id}`, { token: zed.token }));

    // Even CROSS_MODULE stays within the customer.
    const foreign = await (await platform.tenant()).account();
    const crossCustomer = await createRoom(alice, { type: 'CROSS_MODULE', name: 'Too far', memberIds: [foreign.id] });
    expectError(crossCustomer, 400, 'validation_failed', 'body.memberIds.0');
    expect(await roomsCreatedBy(alice.id)).toBe(1);
  });

  test('PRIVATE, SELF and REMINDER cannot be created directly', async () => {
    const alice = await tenant.account();
    for (const type of ['PRIVATE', 'SELF', 'REMINDER']) {
      expectError(await createRoom(alice, { type, name: 'x' }), 400, 'validation_failed', 'body.type');
    }
    expect(await roomsCreatedBy(alice.id)).toBe(0);
  });
});

describe('get', () => {
  test('a non-member and a missing room both get the same 404 room_not_found', async () => {
    const [alice, eve] = await Promise.all([tenant.account(), tenant.account()]);
    const room = await createRoom(alice, { type: 'GROUP', name: 'Private stuff' });
    const hidden = await call(base, 'GET', `/api/v1/rooms/${room.body.data.id}`, { token: eve.token });
    expectError(hidden, 404, 'room_not_found');
    const missing = await call(base, 'GET', `/api/v1/rooms/${newId()}`, { token: eve.token });
    expectError(missing, 404, 'room_not_found');
    expect(hidden.body.error.message).toBe(missing.body.error.message);
  });
});

describe('get-or-create singletons', () => {
  test('the private room is the same from both sides and is not created twice', async () => {
    const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
    const ab = await call(base, 'POST', '/api/v1/rooms/private', { token: alice.token, body: { accountId: bob.id } });
    expectOk(ab);
    expect(ab.body.data).toMatchObject({ type: 'PRIVATE', name: null, memberCount: 2, myRole: 'MEMBER', addMemberPolicy: 'ADMIN_ONLY' });
    const ba = await call(base, 'POST', '/api/v1/rooms/private', { token: bob.token, body: { accountId: alice.id } });
    expectOk(ba);
    expect(ba.body.data.id).toBe(ab.body.data.id);
    const again = await call(base, 'POST', '/api/v1/rooms/private', { token: alice.token, body: { accountId: bob.id } });
    expect(again.body.data.id).toBe(ab.body.data.id);
    expect(
      await count(platform.db, "select count(*) as n from rooms where type = 'PRIVATE' and created_by in ($1, $2)", [alice.id, bob.id]),
    ).toBe(1);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'room.created' and payload->>'roomId' = $1", [
        ab.body.data.id,
      ]),
    ).toBe(1);
  });

  test('concurrent get-or-create calls from both sides create exactly one room', async () => {
    const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
    const calls = Array.from({ length: 12 }, (_, i) => {
      const [from, to] = alternate(i, [alice, bob], [bob, alice]);
      return call(base, 'POST', '/api/v1/rooms/private', { token: from.token, body: { accountId: to.id } });
    });
    const results = await Promise.all(calls);
    for (const r of results) expectOk(r);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    const roomId = results[0]!.body.data.id;
    expect(
      await count(platform.db, "select count(*) as n from rooms where type = 'PRIVATE' and created_by in ($1, $2)", [alice.id, bob.id]),
    ).toBe(1);
    expect(await count(platform.db, 'select count(*) as n from room_members where room_id = $1', [roomId])).toBe(2);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'room.created' and payload->>'roomId' = $1", [roomId]),
    ).toBe(1);
  });

  test('a private room with oneself is 400 at body.accountId', async () => {
    const alice = await tenant.account();
    const res = await call(base, 'POST', '/api/v1/rooms/private', { token: alice.token, body: { accountId: alice.id } });
    expectError(res, 400, 'validation_failed', 'body.accountId');
    expect(await membershipsOf(alice.id)).toBe(0);
  });

  test('a private room with an account of another customer or module, or an unknown one, is 400 and creates nothing', async () => {
    const alice = await tenant.account();
    const foreign = await (await platform.tenant()).account();
    const otherModule = await (await platform.tenant({ customer: tenant.customer })).account();
    for (const accountId of [foreign.id, otherModule.id, newId()]) {
      const res = await call(base, 'POST', '/api/v1/rooms/private', { token: alice.token, body: { accountId } });
      expectError(res, 400, 'validation_failed', 'body.accountId');
    }
    expect(await membershipsOf(alice.id)).toBe(0);
    expect(await roomsCreatedBy(alice.id)).toBe(0);
  });

  test('the self room is a singleton, also under concurrent calls', async () => {
    const alice = await tenant.account();
    const results = await Promise.all(Array.from({ length: 8 }, () => call(base, 'POST', '/api/v1/rooms/self', { token: alice.token })));
    for (const r of results) expectOk(r);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(results[0]!.body.data).toMatchObject({ type: 'SELF', name: null, memberCount: 1, myRole: 'OWNER', createdBy: alice.id });
    const later = await call(base, 'POST', '/api/v1/rooms/self', { token: alice.token });
    expect(later.body.data.id).toBe(results[0]!.body.data.id);
    expect(await roomsCreatedBy(alice.id)).toBe(1);
    // Another account gets its own.
    const bob = await tenant.account();
    const bobs = await call(base, 'POST', '/api/v1/rooms/self', { token: bob.token });
    expect(bobs.body.data.id).not.toBe(later.body.data.id);
  });
});

describe('list', () => {
  test('limit=2 walks every room exactly once, most recently active first', async () => {
    const alice = await tenant.account();
    const created: string[] = [];
    for (let i = 0; i < 7; i++) created.push((await createRoom(alice, { type: 'GROUP', name: `R${i}` })).body.data.id);
    const { ids, pages } = await listAll(alice, '', 2);
    expect(pages).toBe(4);
    expect(ids).toHaveLength(7);
    expect(new Set(ids)).toEqual(new Set(created));
    const { rows } = await platform.db.query<{ id: string }>(
      'select r.id from rooms r join room_members m on m.room_id = r.id where m.account_id = $1 order by r.last_activity_at desc, r.id desc',
      [alice.id],
    );
    expect(ids).toEqual(rows.map((r) => r.id));
  });

  test('rooms with the same last activity are neither skipped nor repeated', async () => {
    const alice = await tenant.account();
    const created: string[] = [];
    for (let i = 0; i < 6; i++) created.push((await createRoom(alice, { type: 'GROUP', name: `Tie${i}` })).body.data.id);
    await platform.db.query("update rooms set last_activity_at = '2030-01-01T00:00:00.123Z' where id = any($1::uuid[])", [
      created.slice(1, 5),
    ]);
    for (const limit of [1, 2, 3, 4]) {
      const { ids } = await listAll(alice, '', limit);
      expect(ids).toHaveLength(6);
      expect(new Set(ids)).toEqual(new Set(created));
    }
  });

  test('an account with no rooms gets an empty last page', async () => {
    const loner = await tenant.account();
    const res = await call(base, 'GET', '/api/v1/rooms', { token: loner.token });
    expectOk(res);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toMatchObject({ hasMore: false, nextCursor: null });
  });

  test('archived rooms are listed only with archived=true, and q filters them (ignored without archived=true)', async () => {
    const alice = await tenant.account();
    const names = ['Alpha 100%', 'Alpha_1', 'Beta', 'alphabet'];
    const ids: Record<string, string> = {};
    for (const name of names) ids[name] = (await createRoom(alice, { type: 'GROUP', name })).body.data.id;
    const visible = (await createRoom(alice, { type: 'GROUP', name: 'Alpha visible' })).body.data.id;
    await platform.db.query('update room_members set archived = true where account_id = $1 and room_id = any($2::uuid[])', [
      alice.id,
      Object.values(ids),
    ]);

    const active = await call(base, 'GET', '/api/v1/rooms', { token: alice.token });
    expect(active.body.data.map((r: { id: string }) => r.id)).toEqual([visible]);
    const archived = await call(base, 'GET', '/api/v1/rooms?archived=true', { token: alice.token });
    expect(new Set(archived.body.data.map((r: { id: string }) => r.id))).toEqual(new Set(Object.values(ids)));
    for (const r of archived.body.data) expect(r.archived).toBe(true);
    const explicitFalse = await call(base, 'GET', '/api/v1/rooms?archived=false', { token: alice.token });
    expect(explicitFalse.body.data.map((r: { id: string }) => r.id)).toEqual([visible]);

    // Without archived=true, q is ignored: the visible rooms, whatever it says.
    for (const extra of ['q=alpha', 'q=zzz&archived=false', 'q=']) {
      const ignored = await call(base, 'GET', `/api/v1/rooms?${extra}`, { token: alice.token });
      expectOk(ignored);
      expect(ignored.body.data.map((r: { id: string }) => r.id)).toEqual([visible]);
    }
    expectError(await call(base, 'GET', `/api/v1/rooms?q=${'a'.repeat(201)}`, { token: alice.token }), 400, 'validation_failed', 'query.q');

    const q = async (text: string) => {
      const res = await call(base, 'GET', `/api/v1/rooms?archived=true&q=${encodeURIComponent(text)}`, { token: alice.token });
      expectOk(res);
      return new Set(res.body.data.map((r: { name: string }) => r.name));
    };
    expect(await q('ALPHA')).toEqual(new Set(['Alpha 100%', 'Alpha_1', 'alphabet']));
    expect(await q('%')).toEqual(new Set(['Alpha 100%'])); // LIKE wildcards are matched literally
    expect(await q('_')).toEqual(new Set(['Alpha_1']));
    expect(await q('zzz')).toEqual(new Set());
  });

  test('include=members inlines members; without it members is absent', async () => {
    const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
    const room = (await createRoom(alice, { type: 'GROUP', name: 'Inline', memberIds: [bob.id] })).body.data;
    const res = await call(base, 'GET', '/api/v1/rooms?include=members', { token: alice.token });
    expectOk(res);
    const listed = res.body.data.find((r: { id: string }) => r.id === room.id);
    expect(listed.membersTruncated).toBe(false);
    expect(listed.members).toHaveLength(2);
    expect(listed.members).toEqual(
      expect.arrayContaining([
        { accountId: alice.id, role: 'OWNER', joinedAt: room.createdAt },
        { accountId: bob.id, role: 'MEMBER', joinedAt: room.createdAt },
      ]),
    );
    const plain = await call(base, 'GET', '/api/v1/rooms', { token: alice.token });
    expect(plain.body.data.find((r: { id: string }) => r.id === room.id).members).toBeUndefined();
  });

  test('rooms over inlineMembersMax are membersTruncated with members []', async () => {
    const small = await startTestPlatform({ services: ['chat'], inlineMembersMax: 2 });
    try {
      const t = await small.tenant();
      const [alice, bob, carol] = await Promise.all([t.account(), t.account(), t.account()]);
      const big = (
        await call(small.chatUrl, 'POST', '/api/v1/rooms', {
          token: alice.token,
          body: { type: 'GROUP', name: 'Big', memberIds: [bob.id, carol.id] },
        })
      ).body.data;
      const fits = (
        await call(small.chatUrl, 'POST', '/api/v1/rooms', {
          token: alice.token,
          body: { type: 'GROUP', name: 'Fits', memberIds: [bob.id] },
        })
      ).body.data;
      const res = await call(small.chatUrl, 'GET', '/api/v1/rooms?include=members', { token: alice.token });
      expectOk(res);
      const byId = new Map(res.body.data.map((r: { id: string }) => [r.id, r]));
      expect(byId.get(big.id)).toMatchObject({ memberCount: 3, membersTruncated: true, members: [] });
      expect(byId.get(fits.id)).toMatchObject({ memberCount: 2, membersTruncated: false });
      expect((byId.get(fits.id) as { members: unknown[] }).members).toHaveLength(2);
    } finally {
      await small.stop();
    }
  });

  test('standalone=true leaves out rooms of a channel; channelId lists only that channel', async () => {
    const alice = await tenant.account();
    const loose = (await createRoom(alice, { type: 'GROUP', name: 'Loose' })).body.data.id;
    const inChannel = (await createRoom(alice, { type: 'GROUP', name: 'In channel' })).body.data.id;
    const channelId = newId();
    await platform.db.query('update rooms set channel_id = $1 where id = $2', [channelId, inChannel]);

    const all = await call(base, 'GET', '/api/v1/rooms', { token: alice.token });
    expect(new Set(all.body.data.map((r: { id: string }) => r.id))).toEqual(new Set([loose, inChannel]));
    const standalone = await call(base, 'GET', '/api/v1/rooms?standalone=true', { token: alice.token });
    expect(standalone.body.data.map((r: { id: string }) => r.id)).toEqual([loose]);
    const channel = await call(base, 'GET', `/api/v1/rooms?channelId=${channelId}`, { token: alice.token });
    expect(channel.body.data.map((r: { id: string }) => r.id)).toEqual([inChannel]);
    expect(channel.body.data[0].channelId).toBe(channelId);
    expectError(
      await call(base, 'GET', '/api/v1/rooms?channelId=nope', { token: alice.token }),
      400,
      'validation_failed',
      'query.channelId',
    );
  });

  test('a room sent to moves to the front of the list', async () => {
    const alice = await tenant.account();
    const first = (await createRoom(alice, { type: 'GROUP', name: 'First' })).body.data.id;
    const second = (await createRoom(alice, { type: 'GROUP', name: 'Second' })).body.data.id;
    await platform.db.query("update rooms set last_activity_at = now() - interval '1 minute' where id = $1", [first]);
    expect((await call(base, 'GET', '/api/v1/rooms', { token: alice.token })).body.data.map((r: { id: string }) => r.id)).toEqual([
      second,
      first,
    ]);
    expectOk(await call(base, 'POST', `/api/v1/rooms/${first}/messages`, { token: alice.token, body: { text: 'bump' } }), 201);
    expect((await call(base, 'GET', '/api/v1/rooms', { token: alice.token })).body.data.map((r: { id: string }) => r.id)).toEqual([
      first,
      second,
    ]);
  });
});
