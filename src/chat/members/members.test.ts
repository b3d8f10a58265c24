// Members over the real listener: the enriched member list, additions under the three policies, join requests
// (list, approve, reject), role changes and leaving with the last-owner rule; refusals change nothing.
import { newId } from '../../platform/ids.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';
import { chatCursorWhileMore, cursorParam, walkPages } from '../../../test/helpers/paging.js';

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

interface Staff {
  roomId: string;
  owner: TestAccount;
  admin: TestAccount;
  member: TestAccount;
  outsider: TestAccount;
}

/** A GROUP with an OWNER, an ADMIN and a MEMBER under the given policy, and an outsider of the same tenant. */
async function staffedRoom(policy = 'ALL_MEMBERS'): Promise<Staff> {
  const [owner, admin, member, outsider] = await Promise.all([tenant.account(), tenant.account(), tenant.account(), tenant.account()]);
  const res = await call(base, 'POST', '/api/v1/rooms', {
    token: owner.token,
    body: { type: 'GROUP', name: 'Staffed', addMemberPolicy: policy, memberIds: [admin.id, member.id] },
  });
  expectOk(res, 201);
  const roomId = res.body.data.id;
  await platform.db.query("update room_members set role = 'ADMIN' where room_id = $1 and account_id = $2", [roomId, admin.id]);
  return { roomId, owner, admin, member, outsider };
}

const add = (who: TestAccount, roomId: string, accountIds: string[]) =>
  call(base, 'POST', `/api/v1/rooms/${roomId}/members`, { token: who.token, body: { accountIds } });
const setRole = (who: TestAccount, roomId: string, accountId: string, role: string) =>
  call(base, 'PATCH', `/api/v1/rooms/${roomId}/members/${accountId}/role`, { token: who.token, body: { role } });
const leave = (who: TestAccount, roomId: string) => call(base, 'POST', `/api/v1/rooms/${roomId}/leave`, { token: who.token });
const members = (roomId: string) => count(platform.db, 'select count(*) as n from room_members where room_id = $1', [roomId]);
const memberCount = (roomId: string) => count(platform.db, 'select member_count as n from rooms where id = $1', [roomId]);
const roleOf = async (roomId: string, accountId: string) =>
  (await platform.db.query('select role from room_members where room_id = $1 and account_id = $2', [roomId, accountId])).rows[0]?.role;
const events = (topic: string, roomId: string) =>
  count(platform.db, "select count(*) as n from outbox where topic = $1 and payload->>'roomId' = $2", [topic, roomId]);

describe('list', () => {
  test("members carry display name, avatar and account type; preferences only on the caller's own entry; pages in joining order", async () => {
    const s = await staffedRoom();
    await platform.db.query("update accounts set display_name = 'Ada', avatar_url = 'https://img.example/ada.png' where id = $1", [
      s.admin.id,
    ]);
    await platform.db.query("update room_members set joined_at = joined_at + interval '1 second' where room_id = $1 and account_id <> $2", [
      s.roomId,
      s.owner.id,
    ]);
    expectOk(await call(base, 'PATCH', `/api/v1/rooms/${s.roomId}/preferences`, { token: s.member.token, body: { pinned: true } }));
    const res = await call(base, 'GET', `/api/v1/rooms/${s.roomId}/members`, { token: s.member.token });
    expectOk(res);
    expect(res.body.meta).toMatchObject({ hasMore: false, nextCursor: null });
    const byId = new Map(res.body.data.map((m: { accountId: string }) => [m.accountId, m]));
    expect(res.body.data[0].accountId).toBe(s.owner.id);
    expect(byId.get(s.admin.id)).toEqual({
      accountId: s.admin.id,
      role: 'ADMIN',
      joinedAt: expect.any(String),
      displayName: 'Ada',
      avatarUrl: 'https://img.example/ada.png',
      accountType: 'USER',
    });
    expect(byId.get(s.member.id)).toMatchObject({
      role: 'MEMBER',
      pinned: true,
      archived: false,
      muted: false,
      mutedUntil: null,
      notificationLevel: 'ALL',
    });

    const pages = await walkPages(async (cursor) => {
      const page = await call(base, 'GET', `/api/v1/rooms/${s.roomId}/members?limit=1${cursorParam(cursor, false)}`, {
        token: s.owner.token,
      });
      expectOk(page);
      return page;
    }, chatCursorWhileMore);
    const seen: string[] = pages.flatMap((page) => page.body.data.map((m: { accountId: string }) => m.accountId));
    expect(seen).toEqual(res.body.data.map((m: { accountId: string }) => m.accountId));
    expect(seen).toHaveLength(3);
  });

  test('a non-member gets 404; a bad cursor 400 invalid_cursor', async () => {
    const s = await staffedRoom();
    expectError(await call(base, 'GET', `/api/v1/rooms/${s.roomId}/members`, { token: s.outsider.token }), 404, 'room_not_found');
    expectError(
      await call(base, 'GET', `/api/v1/rooms/${s.roomId}/members?cursor=eyJhIjoiMDAwMC0wMS0wMSJ9`, { token: s.owner.token }),
      400,
      'invalid_cursor',
    );
  });
});

describe('add under the policies', () => {
  test('ALL_MEMBERS: a regular member adds directly; existing members are reported and nothing changes for them', async () => {
    const s = await staffedRoom('ALL_MEMBERS');
    const [dave, erin] = await Promise.all([tenant.account(), tenant.account()]);
    const res = await add(s.member, s.roomId, [dave.id, erin.id, dave.id, s.admin.id]);
    expectOk(res);
    expect(res.body.data).toEqual({
      status: 'ADDED',
      added: [dave.id, erin.id],
      pending: [],
      alreadyPending: [],
      alreadyMembers: [s.admin.id],
    });
    expect(await members(s.roomId)).toBe(5);
    expect(await memberCount(s.roomId)).toBe(5);
    expect(await roleOf(s.roomId, dave.id)).toBe('MEMBER');
    expectOk(await call(base, 'GET', `/api/v1/rooms/${s.roomId}`, { token: dave.token }));
    const { rows } = await platform.db.query("select payload from outbox where topic = 'member.added' and payload->>'roomId' = $1", [
      s.roomId,
    ]);
    expect(rows).toEqual([
      {
        payload: {
          roomId: s.roomId,
          accountIds: [dave.id, erin.id],
          role: 'MEMBER',
          addedBy: s.member.id,
          audience: { kind: 'room', roomId: s.roomId },
        },
      },
    ]);

    const again = await add(s.member, s.roomId, [dave.id]);
    expect(again.body.data).toEqual({ status: 'ADDED', added: [], pending: [], alreadyPending: [], alreadyMembers: [dave.id] });
    expect(await memberCount(s.roomId)).toBe(5);
    expect(await events('member.added', s.roomId)).toBe(1);
  });

  test('a new member starts with the history read: only messages after the joining count as unread', async () => {
    const s = await staffedRoom('ALL_MEMBERS');
    const dave = await tenant.account();
    for (const text of ['before 1', 'before 2']) {
      expectOk(await call(base, 'POST', `/api/v1/rooms/${s.roomId}/messages`, { token: s.owner.token, body: { text } }), 201);
    }
    expectOk(await add(s.member, s.roomId, [dave.id]));
    const unread = async () => (await call(base, 'GET', `/api/v1/rooms/${s.roomId}`, { token: dave.token })).body.data.unreadCount;
    expect(await unread()).toBe(0);
    expectOk(await call(base, 'POST', `/api/v1/rooms/${s.roomId}/messages`, { token: s.owner.token, body: { text: 'after' } }), 201);
    expect(await unread()).toBe(1);
    // Members from the creation saw everything arrive.
    expect((await call(base, 'GET', `/api/v1/rooms/${s.roomId}`, { token: s.member.token })).body.data.unreadCount).toBe(3);
  });

  test('ADMIN_ONLY: a regular member gets 403 and nothing changes; an admin adds', async () => {
    const s = await staffedRoom('ADMIN_ONLY');
    const dave = await tenant.account();
    expectError(await add(s.member, s.roomId, [dave.id]), 403, 'forbidden');
    expect(await members(s.roomId)).toBe(3);
    expect(await count(platform.db, 'select count(*) as n from join_requests where room_id = $1', [s.roomId])).toBe(0);
    const res = await add(s.admin, s.roomId, [dave.id]);
    expect(res.body.data).toMatchObject({ status: 'ADDED', added: [dave.id] });
    expect(await memberCount(s.roomId)).toBe(4);
  });

  test('ALL_MEMBERS_WITH_APPROVAL: a regular member makes pending requests, a repeat keeps them, an owner adds directly', async () => {
    const s = await staffedRoom('ALL_MEMBERS_WITH_APPROVAL');
    const [dave, erin] = await Promise.all([tenant.account(), tenant.account()]);
    const res = await add(s.member, s.roomId, [dave.id, s.admin.id]);
    expectOk(res);
    expect(res.body.data).toMatchObject({ status: 'PENDING_APPROVAL', added: [], alreadyPending: [], alreadyMembers: [s.admin.id] });
    expect(res.body.data.pending).toEqual([
      {
        id: expect.any(String),
        roomId: s.roomId,
        accountId: dave.id,
        displayName: expect.any(String),
        avatarUrl: null,
        requestedBy: s.member.id,
        status: 'PENDING',
        createdAt: expect.any(String),
        resolvedAt: null,
        resolvedBy: null,
      },
    ]);
    expect(await members(s.roomId)).toBe(3);
    const requestId = res.body.data.pending[0].id;
    const { rows } = await platform.db.query(
      "select payload from outbox where topic = 'join_request.created' and payload->>'roomId' = $1",
      [s.roomId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].payload).toMatchObject({
      roomId: s.roomId,
      requestId,
      accountId: dave.id,
      requestedBy: s.member.id,
      audience: { kind: 'accounts' },
    });
    expect(new Set(rows[0].payload.audience.accountIds)).toEqual(new Set([s.owner.id, s.admin.id, s.member.id]));

    const again = await add(s.member, s.roomId, [dave.id, erin.id]);
    expect(again.body.data.status).toBe('PENDING_APPROVAL');
    expect(again.body.data.alreadyPending).toEqual([dave.id]);
    expect(again.body.data.pending.map((p: { id: string; accountId: string }) => p.accountId).sort()).toEqual([dave.id, erin.id].sort());
    expect(again.body.data.pending.find((p: { accountId: string }) => p.accountId === dave.id).id).toBe(requestId);
    expect(await count(platform.db, "select count(*) as n from join_requests where room_id = $1 and status = 'PENDING'", [s.roomId])).toBe(
      2,
    );
    expect(await events('join_request.created', s.roomId)).toBe(2);

    // The owner adds dave directly: he becomes a member and his pending request is settled.
    const direct = await add(s.owner, s.roomId, [dave.id]);
    expect(direct.body.data).toMatchObject({ status: 'ADDED', added: [dave.id] });
    expect((await platform.db.query('select status, resolved_by from join_requests where id = $1', [requestId])).rows[0]).toEqual({
      status: 'APPROVED',
      resolved_by: s.owner.id,
    });
  });

  test('accounts that may not join are 400 at body.accountIds.N and nothing is added or requested', async () => {
    const s = await staffedRoom('ALL_MEMBERS_WITH_APPROVAL');
    const dave = await tenant.account();
    const stranger = await (await platform.tenant()).account();
    const otherModule = await (await platform.tenant({ customer: tenant.customer })).account();
    const banned = await tenant.account({ status: 'BANNED' });
    for (const who of [s.owner, s.member]) {
      const res = await add(who, s.roomId, [dave.id, stranger.id, otherModule.id, newId(), banned.id]);
      expectError(res, 400, 'validation_failed');
      expect(res.body.error.details.map((d: { location: string }) => d.location)).toEqual([
        'body.accountIds.1',
        'body.accountIds.2',
        'body.accountIds.3',
        'body.accountIds.4',
      ]);
    }
    expectError(await add(s.owner, s.roomId, []), 400, 'validation_failed', 'body.accountIds');
    expectError(
      await add(
        s.owner,
        s.roomId,
        Array.from({ length: 101 }, () => newId()),
      ),
      400,
      'validation_failed',
      'body.accountIds',
    );
    expectError(await add(s.owner, s.roomId, ['not-a-uuid']), 400, 'validation_failed', 'body.accountIds.0');
    expect(await members(s.roomId)).toBe(3);
    expect(await count(platform.db, 'select count(*) as n from join_requests where room_id = $1', [s.roomId])).toBe(0);
  });

  test('a non-member gets 404; PRIVATE and SELF rooms take no members (409 unsupported_room_type)', async () => {
    const s = await staffedRoom();
    const dave = await tenant.account();
    expectError(await add(s.outsider, s.roomId, [dave.id]), 404, 'room_not_found');
    const priv = (await call(base, 'POST', '/api/v1/rooms/private', { token: s.owner.token, body: { accountId: s.member.id } })).body.data
      .id;
    const self = (await call(base, 'POST', '/api/v1/rooms/self', { token: s.owner.token })).body.data.id;
    for (const roomId of [priv, self]) {
      expectError(await add(s.owner, roomId, [dave.id]), 409, 'unsupported_room_type');
    }
    expect(await members(priv)).toBe(2);
    expect(await members(self)).toBe(1);
  });
});

describe('join requests', () => {
  async function withRequests(n: number): Promise<Staff & { requests: Array<{ id: string; accountId: string }> }> {
    const s = await staffedRoom('ALL_MEMBERS_WITH_APPROVAL');
    const people = await Promise.all(Array.from({ length: n }, () => tenant.account()));
    const res = await add(
      s.member,
      s.roomId,
      people.map((p) => p.id),
    );
    expectOk(res);
    return { ...s, requests: res.body.data.pending };
  }

  test('owner and admin list pending requests oldest first, paged; a member gets 403', async () => {
    const s = await withRequests(3);
    const all = await call(base, 'GET', `/api/v1/rooms/${s.roomId}/join-requests`, { token: s.admin.token });
    expectOk(all);
    expect(all.body.data.map((r: { id: string }) => r.id)).toEqual(s.requests.map((r) => r.id));
    const first = await call(base, 'GET', `/api/v1/rooms/${s.roomId}/join-requests?limit=2`, { token: s.owner.token });
    expect(first.body.meta.hasMore).toBe(true);
    const second = await call(base, 'GET', `/api/v1/rooms/${s.roomId}/join-requests?limit=2&cursor=${first.body.meta.nextCursor}`, {
      token: s.owner.token,
    });
    expect([...first.body.data, ...second.body.data].map((r: { id: string }) => r.id)).toEqual(s.requests.map((r) => r.id));
    expect(second.body.meta).toMatchObject({ hasMore: false, nextCursor: null });
    expectError(await call(base, 'GET', `/api/v1/rooms/${s.roomId}/join-requests`, { token: s.member.token }), 403, 'forbidden');
    expectError(await call(base, 'GET', `/api/v1/rooms/${s.roomId}/join-requests`, { token: s.outsider.token }), 404, 'room_not_found');
  });

  test('approve makes a MEMBER (member_count follows); a second decision is 409 join_request_resolved', async () => {
    const s = await withRequests(2);
    const [r1, r2] = s.requests as [{ id: string; accountId: string }, { id: string; accountId: string }];
    const res = await call(base, 'POST', `/api/v1/rooms/${s.roomId}/join-requests/${r1.id}/approve`, { token: s.admin.token });
    expectOk(res);
    expect(res.body.data).toMatchObject({ accountId: r1.accountId, role: 'MEMBER', accountType: 'USER' });
    expect(res.body.data.pinned).toBeUndefined();
    expect(await roleOf(s.roomId, r1.accountId)).toBe('MEMBER');
    expect(await memberCount(s.roomId)).toBe(4);
    expect(await events('member.added', s.roomId)).toBe(1);
    expect(await events('join_request.approved', s.roomId)).toBe(1);
    for (const action of ['approve', 'reject']) {
      expectError(
        await call(base, 'POST', `/api/v1/rooms/${s.roomId}/join-requests/${r1.id}/${action}`, { token: s.owner.token }),
        409,
        'join_request_resolved',
      );
    }

    const rejected = await call(base, 'POST', `/api/v1/rooms/${s.roomId}/join-requests/${r2.id}/reject`, { token: s.owner.token });
    expectOk(rejected);
    expect(rejected.body.data).toEqual({ requestId: r2.id, status: 'REJECTED' });
    expect(await roleOf(s.roomId, r2.accountId)).toBeUndefined();
    expect(await memberCount(s.roomId)).toBe(4);
    expect(await events('join_request.rejected', s.roomId)).toBe(1);
    expectError(
      await call(base, 'POST', `/api/v1/rooms/${s.roomId}/join-requests/${r2.id}/approve`, { token: s.owner.token }),
      409,
      'join_request_resolved',
    );
    expect((await call(base, 'GET', `/api/v1/rooms/${s.roomId}/join-requests`, { token: s.owner.token })).body.data).toEqual([]);
    const { rows } = await platform.db.query('select id, status, resolved_by from join_requests where room_id = $1 order by id', [
      s.roomId,
    ]);
    expect(rows).toEqual([
      { id: r1.id, status: 'APPROVED', resolved_by: s.admin.id },
      { id: r2.id, status: 'REJECTED', resolved_by: s.owner.id },
    ]);
  });

  test('a member gets 403, a non-member 404, an unknown or foreign request 404 join_request_not_found; nothing changes', async () => {
    const s = await withRequests(1);
    const other = await withRequests(1);
    const r = s.requests[0]!;
    for (const action of ['approve', 'reject']) {
      expectError(
        await call(base, 'POST', `/api/v1/rooms/${s.roomId}/join-requests/${r.id}/${action}`, { token: s.member.token }),
        403,
        'forbidden',
      );
      expectError(
        await call(base, 'POST', `/api/v1/rooms/${s.roomId}/join-requests/${r.id}/${action}`, { token: s.outsider.token }),
        404,
        'room_not_found',
      );
      expectError(
        await call(base, 'POST', `/api/v1/rooms/${s.roomId}/join-requests/${newId()}/${action}`, { token: s.owner.token }),
        404,
        'join_request_not_found',
      );
      expectError(
        await call(base, 'POST', `/api/v1/rooms/${s.roomId}/join-requests/${other.requests[0]!.id}/${action}`, { token: s.owner.token }),
        404,
        'join_request_not_found',
      );
    }
    expect(
      await count(platform.db, "select count(*) as n from join_requests where room_id = any($1::uuid[]) and status = 'PENDING'", [
        [s.roomId, other.roomId],
      ]),
    ).toBe(2);
    expect(await members(s.roomId)).toBe(3);
  });

  test('approving a request for an account that was banned meanwhile is 400 and leaves it pending', async () => {
    const s = await withRequests(1);
    const r = s.requests[0]!;
    await platform.db.query("update accounts set status = 'BANNED' where id = $1", [r.accountId]);
    expectError(
      await call(base, 'POST', `/api/v1/rooms/${s.roomId}/join-requests/${r.id}/approve`, { token: s.owner.token }),
      400,
      'validation_failed',
      'path.requestId',
    );
    expect(await roleOf(s.roomId, r.accountId)).toBeUndefined();
    expect((await platform.db.query('select status from join_requests where id = $1', [r.id])).rows[0].status).toBe('PENDING');
  });
});

describe('roles', () => {
  test('the owner promotes and demotes; the event names both roles; a repeat changes nothing', async () => {
    const s = await staffedRoom();
    const res = await setRole(s.owner, s.roomId, s.member.id, 'ADMIN');
    expectOk(res);
    expect(res.body.data).toMatchObject({ accountId: s.member.id, role: 'ADMIN' });
    expect(await roleOf(s.roomId, s.member.id)).toBe('ADMIN');
    expectOk(await setRole(s.owner, s.roomId, s.member.id, 'ADMIN'));
    const { rows } = await platform.db.query("select payload from outbox where topic = 'member.role_changed' and payload->>'roomId' = $1", [
      s.roomId,
    ]);
    expect(rows).toEqual([
      {
        payload: {
          roomId: s.roomId,
          accountId: s.member.id,
          role: 'ADMIN',
          previousRole: 'MEMBER',
          changedBy: s.owner.id,
          audience: { kind: 'room', roomId: s.roomId },
        },
      },
    ]);
  });

  test('an admin or member gets 403, a non-member 404, an unknown target 404 member_not_found, a bad role 400; nothing changes', async () => {
    const s = await staffedRoom();
    expectError(await setRole(s.admin, s.roomId, s.member.id, 'ADMIN'), 403, 'forbidden');
    expectError(await setRole(s.member, s.roomId, s.member.id, 'OWNER'), 403, 'forbidden');
    expectError(await setRole(s.outsider, s.roomId, s.member.id, 'ADMIN'), 404, 'room_not_found');
    expectError(await setRole(s.owner, s.roomId, s.outsider.id, 'ADMIN'), 404, 'member_not_found');
    expectError(await setRole(s.owner, s.roomId, s.member.id, 'KING'), 400, 'validation_failed', 'body.role');
    expect(await roleOf(s.roomId, s.member.id)).toBe('MEMBER');
    expect(await roleOf(s.roomId, s.admin.id)).toBe('ADMIN');
    expect(await events('member.role_changed', s.roomId)).toBe(0);
  });

  test('the last owner cannot be demoted (409 last_owner); with a second owner it can', async () => {
    const s = await staffedRoom();
    const refused = await setRole(s.owner, s.roomId, s.owner.id, 'ADMIN');
    expectError(refused, 409, 'last_owner');
    expect(await roleOf(s.roomId, s.owner.id)).toBe('OWNER');
    expectOk(await setRole(s.owner, s.roomId, s.admin.id, 'OWNER'));
    const res = await setRole(s.owner, s.roomId, s.owner.id, 'MEMBER');
    expectOk(res);
    expect(res.body.data).toMatchObject({ role: 'MEMBER', pinned: false });
    // The new sole owner is now the last one.
    expectError(await setRole(s.admin, s.roomId, s.admin.id, 'ADMIN'), 409, 'last_owner');
  });
});

describe('leave', () => {
  test('a member leaves: gone from the room and its list, member_count down, member.left to the room and to the leaver', async () => {
    const s = await staffedRoom();
    const res = await leave(s.member, s.roomId);
    expectOk(res);
    expect(res.body.data).toEqual({ roomId: s.roomId, status: 'left' });
    expect(await members(s.roomId)).toBe(2);
    expect(await memberCount(s.roomId)).toBe(2);
    expectError(await call(base, 'GET', `/api/v1/rooms/${s.roomId}`, { token: s.member.token }), 404, 'room_not_found');
    expect((await call(base, 'GET', '/api/v1/rooms', { token: s.member.token })).body.data).toEqual([]);
    expectError(await leave(s.member, s.roomId), 404, 'room_not_found');
    const { rows } = await platform.db.query(
      "select payload->'audience' as audience from outbox where topic = 'member.left' and payload->>'roomId' = $1 order by id",
      [s.roomId],
    );
    expect(rows).toEqual([{ audience: { kind: 'room', roomId: s.roomId } }, { audience: { kind: 'accounts', accountIds: [s.member.id] } }]);
  });

  test('the last owner of a room with members is refused with 409 last_owner; after handing ownership on, it may leave', async () => {
    const s = await staffedRoom();
    const refused = await leave(s.owner, s.roomId);
    expectError(refused, 409, 'last_owner');
    expect(refused.body.error.message).toMatch(/hand ownership on/);
    expect(await members(s.roomId)).toBe(3);
    expect(await events('member.left', s.roomId)).toBe(0);
    expectOk(await setRole(s.owner, s.roomId, s.admin.id, 'OWNER'));
    expect((await leave(s.owner, s.roomId)).body.data.status).toBe('left');
    expect(await roleOf(s.roomId, s.admin.id)).toBe('OWNER');
  });

  test('two owners leaving at once: exactly one succeeds, the room keeps an owner', async () => {
    const s = await staffedRoom();
    await platform.db.query("update room_members set role = 'OWNER' where room_id = $1 and account_id = $2", [s.roomId, s.admin.id]);
    const results = await Promise.all([leave(s.owner, s.roomId), leave(s.admin, s.roomId)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(await count(platform.db, "select count(*) as n from room_members where room_id = $1 and role = 'OWNER'", [s.roomId])).toBe(1);
    expect(await memberCount(s.roomId)).toBe(2);
  });

  test('the last member leaving deletes the room', async () => {
    const alice = await tenant.account();
    const roomId = (await call(base, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'GROUP', name: 'Alone' } })).body.data.id;
    const res = await leave(alice, roomId);
    expect(res.body.data).toEqual({ roomId, status: 'deleted' });
    expect((await platform.db.query('select deleted_at from rooms where id = $1', [roomId])).rows[0].deleted_at).not.toBeNull();
    expect(await events('room.deleted', roomId)).toBe(1);
    expectError(await call(base, 'GET', `/api/v1/rooms/${roomId}`, { token: alice.token }), 404, 'room_not_found');
  });

  test('PRIVATE and SELF rooms cannot be left (409 unsupported_room_type)', async () => {
    const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
    const priv = (await call(base, 'POST', '/api/v1/rooms/private', { token: alice.token, body: { accountId: bob.id } })).body.data.id;
    const self = (await call(base, 'POST', '/api/v1/rooms/self', { token: alice.token })).body.data.id;
    expectError(await leave(alice, priv), 409, 'unsupported_room_type');
    expectError(await leave(alice, self), 409, 'unsupported_room_type');
    expect(await members(priv)).toBe(2);
    expect(await members(self)).toBe(1);
  });
});
