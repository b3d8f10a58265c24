// Channels over the real listener: creation in both modes, the list and detail, update, delete (with the
// channel's rooms), members, the sidebar pin, roles and refusals, and rooms that belong to a channel.
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';
import { chatNextCursor, cursorParam, walkPages } from '../../../test/helpers/paging.js';
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

const api = (who: TestAccount, method: string, path: string, body?: unknown) =>
  call(base, method, `/api/v1${path}`, { token: who.token, ...(body === undefined ? {} : { body }) });

async function explicitChannel(owner: TestAccount, memberIds: string[] = [], name = 'Engineering'): Promise<string> {
  const res = await api(owner, 'POST', '/channels', { name, membershipMode: 'EXPLICIT', memberIds });
  expectOk(res, 201);
  return res.body.data.id;
}

/** A channel with an owner, an admin (added by the owner) and a plain member. */
async function cast(): Promise<{ channelId: string; owner: TestAccount; admin: TestAccount; member: TestAccount; outsider: TestAccount }> {
  const [owner, admin, member, outsider] = await Promise.all([tenant.account(), tenant.account(), tenant.account(), tenant.account()]);
  const channelId = await explicitChannel(owner, [member.id]);
  expectOk(await api(owner, 'POST', `/channels/${channelId}/members`, { accountId: admin.id, role: 'ADMIN' }));
  return { channelId, owner, admin, member, outsider };
}

const memberRows = async (channelId: string) =>
  (
    await platform.db.query<{ account_id: string; role: string }>(
      'select account_id, role from channel_members where channel_id = $1 order by account_id',
      [channelId],
    )
  ).rows;
const events = (topic: string, channelId: string) =>
  count(platform.db, "select count(*) as n from outbox where topic = $1 and payload->>'channelId' = $2", [topic, channelId]);

describe('create', () => {
  test('EXPLICIT: 201 with Location, the creator is OWNER, initial members are MEMBER, channel.created is written', async () => {
    const [alice, bob, carol] = await Promise.all([tenant.account(), tenant.account(), tenant.account()]);
    const res = await api(alice, 'POST', '/channels', {
      name: '  Engineering ',
      description: 'All of it',
      membershipMode: 'EXPLICIT',
      memberIds: [bob.id, carol.id, bob.id, alice.id],
    });
    expectOk(res, 201);
    const channel = res.body.data;
    expect(res.headers.get('location')).toBe(`/api/v1/channels/${channel.id}`);
    expect(channel).toMatchObject({
      name: 'Engineering',
      description: 'All of it',
      membershipMode: 'EXPLICIT',
      rule: null,
      memberCount: 3,
      createdBy: alice.id,
      myRole: 'OWNER',
      pinned: false,
    });
    expect(await memberRows(channel.id)).toEqual(
      [
        { account_id: alice.id, role: 'OWNER' },
        { account_id: bob.id, role: 'MEMBER' },
        { account_id: carol.id, role: 'MEMBER' },
      ].sort((a, b) => a.account_id.localeCompare(b.account_id)),
    );
    expect(await events('channel.created', channel.id)).toBe(1);
    expect(await events('channel.members_added', channel.id)).toBe(1);
    const asBob = await api(bob, 'GET', `/channels/${channel.id}`);
    expectOk(asBob);
    expect(asBob.body.data).toMatchObject({ id: channel.id, myRole: 'MEMBER', memberCount: 3 });
  });

  test('refusals change nothing: a member of another customer or module, a rule in EXPLICIT mode, memberIds or no rule in RULE mode, a blank name', async () => {
    const alice = await tenant.account();
    const stranger = await (await platform.tenant()).account();
    const otherModule = await (await platform.tenant({ customer: tenant.customer })).account();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'x', membershipMode: 'EXPLICIT', memberIds: [otherModule.id, stranger.id] }, 'body.memberIds.1'],
      [{ name: 'x', membershipMode: 'EXPLICIT', rule: { field: 'team', equals: 'a' } }, 'body.rule'],
      [{ name: 'x', membershipMode: 'RULE' }, 'body.rule'],
      [{ name: 'x', membershipMode: 'RULE', rule: { field: 'team', equals: 'a' }, memberIds: [] }, 'body.memberIds'],
      [{ name: ' \t ', membershipMode: 'EXPLICIT' }, 'body.name'],
      [{ name: 'x', membershipMode: 'SOMETIMES' }, 'body.membershipMode'],
    ];
    for (const [body, location] of cases) expectError(await api(alice, 'POST', '/channels', body), 400, 'validation_failed', location);
    const first = await api(alice, 'POST', '/channels', cases[0]![0]);
    expect(first.body.error.details.map((d: { location: string }) => d.location)).toEqual(['body.memberIds.0', 'body.memberIds.1']);
    expect(await count(platform.db, 'select count(*) as n from channels where created_by = $1', [alice.id])).toBe(0);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic like 'channel.%' and payload->>'createdBy' = $1", [alice.id]),
    ).toBe(0);
  });
});

describe('list and detail', () => {
  test('only channels the caller is in; pinned first, then newest; pages by cursor; a non-member gets 404', async () => {
    const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await explicitChannel(alice, alternate(i, [bob.id], []), `c${i}`));
    await explicitChannel(bob, [], 'not alice');
    expectOk(await api(alice, 'PATCH', `/channels/${ids[1]}/preferences`, { pinned: true }));
    const pages = await walkPages(async (cursor) => {
      const res = await api(alice, 'GET', `/channels?limit=2${cursorParam(cursor)}`);
      expectOk(res);
      expect(res.body.meta.hasMore).toBe(res.body.meta.nextCursor !== null);
      return res;
    }, chatNextCursor);
    const seen: string[] = pages.flatMap((res) => res.body.data.map((c: { id: string }) => c.id));
    expect(seen).toEqual([ids[1], ids[4], ids[3], ids[2], ids[0]]);
    const bobs = await api(bob, 'GET', '/channels');
    expect(bobs.body.data.map((c: { name: string }) => c.name).sort()).toEqual(['c0', 'c2', 'c4', 'not alice']);
    expectError(await api(bob, 'GET', `/channels/${ids[1]}`), 404, 'channel_not_found');
    expectError(await api(alice, 'GET', '/channels?cursor=made-up'), 400, 'invalid_cursor', 'query.cursor');
  });
});

describe('update and delete', () => {
  test('owner and admin rename and describe; a member is refused and nothing changes; a call that changes nothing writes no event', async () => {
    const { channelId, owner, admin, member, outsider } = await cast();
    expectError(await api(member, 'PATCH', `/channels/${channelId}`, { name: 'Mine now' }), 403, 'forbidden');
    expectError(await api(outsider, 'PATCH', `/channels/${channelId}`, { name: 'Mine now' }), 404, 'channel_not_found');
    expectError(await api(owner, 'PATCH', `/channels/${channelId}`, { name: '   ' }), 400, 'validation_failed', 'body.name');
    expect(await events('channel.updated', channelId)).toBe(0);
    const res = await api(admin, 'PATCH', `/channels/${channelId}`, { name: 'Platform', description: 'd' });
    expectOk(res);
    expect(res.body.data).toMatchObject({ name: 'Platform', description: 'd', myRole: 'ADMIN' });
    expectOk(await api(owner, 'PATCH', `/channels/${channelId}`, { name: 'Platform' }));
    expect(await events('channel.updated', channelId)).toBe(1);
    const cleared = await api(owner, 'PATCH', `/channels/${channelId}`, { description: null });
    expect(cleared.body.data.description).toBeNull();
  });

  test('the owner deletes the channel and its rooms; admin and member are refused; afterwards everything is 404', async () => {
    const { channelId, owner, admin, member } = await cast();
    const room = await api(owner, 'POST', '/rooms', { type: 'GROUP', name: 'In the channel', channelId });
    expectOk(room, 201);
    const roomId = room.body.data.id;
    expectError(await api(admin, 'DELETE', `/channels/${channelId}`), 403, 'forbidden');
    expectError(await api(member, 'DELETE', `/channels/${channelId}`), 403, 'forbidden');
    expect((await memberRows(channelId)).length).toBe(3);
    const res = await api(owner, 'DELETE', `/channels/${channelId}`);
    expectOk(res);
    expect(res.body.data).toEqual({ channelId, status: 'deleted' });
    for (const who of [owner, admin, member]) {
      expectError(await api(who, 'GET', `/channels/${channelId}`), 404, 'channel_not_found');
      expectError(await api(who, 'GET', `/rooms/${roomId}`), 404, 'room_not_found');
    }
    expect(await count(platform.db, 'select count(*) as n from channel_members where channel_id = $1', [channelId])).toBe(0);
    expect(await count(platform.db, 'select count(*) as n from rooms where id = $1 and deleted_at is not null', [roomId])).toBe(1);
    expect(await events('channel.deleted', channelId)).toBe(1);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'room.deleted' and payload->>'roomId' = $1", [roomId]),
    ).toBe(1);
    expectError(await api(owner, 'DELETE', `/channels/${channelId}`), 404, 'channel_not_found');
  });
});

describe('members', () => {
  test('owner/admin add in EXPLICIT mode; the new member joins every room of the channel; a repeat answers the member unchanged', async () => {
    const { channelId, owner, admin, member } = await cast();
    const room = (await api(owner, 'POST', '/rooms', { type: 'GROUP', name: 'Standup', channelId })).body.data;
    await api(owner, 'POST', `/rooms/${room.id}/messages`, { text: 'before dave' });
    const dave = await tenant.account();
    const res = await api(admin, 'POST', `/channels/${channelId}/members`, { accountId: dave.id });
    expectOk(res);
    expect(res.body.data).toMatchObject({ accountId: dave.id, role: 'MEMBER' });
    const asDave = await api(dave, 'GET', `/rooms/${room.id}`);
    expectOk(asDave);
    // The room's history before joining is read.
    expect(asDave.body.data).toMatchObject({ channelId, memberCount: 4, unreadCount: 0, myRole: 'MEMBER' });
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'member.added' and payload->>'roomId' = $1", [room.id]),
    ).toBe(1);
    const again = await api(owner, 'POST', `/channels/${channelId}/members`, { accountId: dave.id, role: 'MEMBER' });
    expect(again.body.data).toEqual(res.body.data);
    expect(await events('channel.members_added', channelId)).toBe(3); // creation, the admin, dave
    const list = await api(member, 'GET', `/channels/${channelId}/members?limit=2`);
    expectOk(list);
    expect(list.body.data).toHaveLength(2);
    expect(list.body.meta.hasMore).toBe(true);
    const rest = await api(
      member,
      'GET',
      `/channels/${channelId}/members?limit=10&cursor=${encodeURIComponent(list.body.meta.nextCursor)}`,
    );
    // The owner and the initial member joined in the same instant: the account id orders them.
    expect([...list.body.data, ...rest.body.data].map((m: { accountId: string }) => m.accountId)).toEqual([
      ...[owner.id, member.id].sort(),
      admin.id,
      dave.id,
    ]);
    expect(rest.body.data[1]).toMatchObject({ displayName: expect.any(String), avatarUrl: null, accountType: 'USER' });
  });

  test('refusals: a member adds (403), an admin gives ADMIN (403), an account of another customer (400), a RULE channel (409); nothing changes', async () => {
    const { channelId, admin, member, owner } = await cast();
    const [dave, stranger] = [await tenant.account(), await (await platform.tenant()).account()];
    expectError(await api(member, 'POST', `/channels/${channelId}/members`, { accountId: dave.id }), 403, 'forbidden');
    expectError(await api(admin, 'POST', `/channels/${channelId}/members`, { accountId: dave.id, role: 'ADMIN' }), 403, 'forbidden');
    expectError(
      await api(owner, 'POST', `/channels/${channelId}/members`, { accountId: stranger.id }),
      400,
      'validation_failed',
      'body.accountId',
    );
    expectError(
      await api(owner, 'POST', `/channels/${channelId}/members`, { accountId: dave.id, role: 'OWNER' }),
      400,
      'validation_failed',
      'body.role',
    );
    const ruled = await api(owner, 'POST', '/channels', {
      name: 'Ruled',
      membershipMode: 'RULE',
      rule: { field: 'team', equals: 'nobody' },
    });
    expectError(await api(owner, 'POST', `/channels/${ruled.body.data.id}/members`, { accountId: dave.id }), 409, 'channel_rule_managed');
    expect((await memberRows(channelId)).length).toBe(3);
    expect((await memberRows(ruled.body.data.id)).length).toBe(1);
  });
});

describe('preferences', () => {
  test('any member pins for itself only; a repeat writes nothing; a non-member gets 404', async () => {
    const { channelId, member, owner, outsider } = await cast();
    const res = await api(member, 'PATCH', `/channels/${channelId}/preferences`, { pinned: true });
    expectOk(res);
    expect(res.body.data).toMatchObject({ pinned: true, myRole: 'MEMBER' });
    expect((await api(owner, 'GET', `/channels/${channelId}`)).body.data.pinned).toBe(false);
    expectOk(await api(member, 'PATCH', `/channels/${channelId}/preferences`, { pinned: true }));
    expectOk(await api(member, 'PATCH', `/channels/${channelId}/preferences`, {}));
    expect(await events('channel.preferences_changed', channelId)).toBe(1);
    expectError(await api(outsider, 'PATCH', `/channels/${channelId}/preferences`, { pinned: true }), 404, 'channel_not_found');
  });
});

describe('rooms of a channel', () => {
  test('an owner/admin creates a room in the channel: every channel member is in it, and the room list filters show it', async () => {
    const { channelId, owner, admin, member, outsider } = await cast();
    const res = await api(admin, 'POST', '/rooms', { type: 'CHANNEL', name: 'Announcements', channelId });
    expectOk(res, 201);
    expect(res.body.data).toMatchObject({ channelId, memberCount: 3, myRole: 'OWNER' });
    const roomId = res.body.data.id;
    const standalone = await explicitChannel(owner, [], 'other');
    void standalone;
    const plain = (await api(member, 'POST', '/rooms', { type: 'GROUP', name: 'Plain' })).body.data.id;
    const inChannel = await api(member, 'GET', `/rooms?channelId=${channelId}`);
    expect(inChannel.body.data.map((r: { id: string }) => r.id)).toEqual([roomId]);
    const alone = await api(member, 'GET', '/rooms?standalone=true');
    expect(alone.body.data.map((r: { id: string }) => r.id)).toEqual([plain]);
    expect((await api(outsider, 'GET', `/rooms?channelId=${channelId}`)).body.data).toEqual([]);
    expectError(await api(outsider, 'GET', `/rooms/${roomId}`), 404, 'room_not_found');
  });

  test('refusals: a plain member (403), a non-member (404), memberIds with channelId and CROSS_MODULE (400); no room is made', async () => {
    const { channelId, owner, member, outsider } = await cast();
    expectError(await api(member, 'POST', '/rooms', { type: 'GROUP', name: 'x', channelId }), 403, 'forbidden');
    expectError(await api(outsider, 'POST', '/rooms', { type: 'GROUP', name: 'x', channelId }), 404, 'channel_not_found');
    expectError(
      await api(owner, 'POST', '/rooms', { type: 'GROUP', name: 'x', channelId, memberIds: [] }),
      400,
      'validation_failed',
      'body.memberIds',
    );
    expectError(await api(owner, 'POST', '/rooms', { type: 'CROSS_MODULE', name: 'x', channelId }), 400, 'validation_failed', 'body.type');
    expect(await count(platform.db, 'select count(*) as n from rooms where channel_id = $1', [channelId])).toBe(0);
  });
});
