// Room update and delete, and the reminder room, over the real listener: roles, non-members, fixed room types,
// bad input that changes nothing, idempotent repeats, events, and a deleted room gone for everyone.
import { newId } from '../../platform/ids.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';
import { reminderBotId } from './reminder-bot.js';

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

/** A GROUP with alice as OWNER, bob as ADMIN and carol as MEMBER. */
async function staffedRoom(
  policy = 'ALL_MEMBERS',
): Promise<{ roomId: string; alice: TestAccount; bob: TestAccount; carol: TestAccount; eve: TestAccount }> {
  const [alice, bob, carol, eve] = await Promise.all([tenant.account(), tenant.account(), tenant.account(), tenant.account()]);
  const res = await call(base, 'POST', '/api/v1/rooms', {
    token: alice.token,
    body: { type: 'GROUP', name: 'Team', description: 'first', addMemberPolicy: policy, memberIds: [bob.id, carol.id] },
  });
  expectOk(res, 201);
  const roomId = res.body.data.id;
  await platform.db.query("update room_members set role = 'ADMIN' where room_id = $1 and account_id = $2", [roomId, bob.id]);
  return { roomId, alice, bob, carol, eve };
}

const patch = (who: TestAccount, roomId: string, body: unknown) =>
  call(base, 'PATCH', `/api/v1/rooms/${roomId}`, { token: who.token, body });
const remove = (who: TestAccount, roomId: string) => call(base, 'DELETE', `/api/v1/rooms/${roomId}`, { token: who.token });
const events = (topic: string, roomId: string) =>
  count(platform.db, "select count(*) as n from outbox where topic = $1 and payload->>'roomId' = $2", [topic, roomId]);
const roomRow = async (roomId: string) =>
  (await platform.db.query('select name, description, add_member_policy, deleted_at, member_count from rooms where id = $1', [roomId]))
    .rows[0];

describe('update', () => {
  test('the owner renames (trimmed), describes and changes the policy; the change is one room.updated event', async () => {
    const { roomId, alice, carol } = await staffedRoom();
    const res = await patch(alice, roomId, { name: '  New name \n', description: 'second', addMemberPolicy: 'ADMIN_ONLY' });
    expectOk(res);
    expect(res.body.data).toMatchObject({
      id: roomId,
      name: 'New name',
      description: 'second',
      addMemberPolicy: 'ADMIN_ONLY',
      myRole: 'OWNER',
    });
    expect((await call(base, 'GET', `/api/v1/rooms/${roomId}`, { token: carol.token })).body.data).toMatchObject({
      name: 'New name',
      myRole: 'MEMBER',
    });
    const { rows } = await platform.db.query("select payload from outbox where topic = 'room.updated' and payload->>'roomId' = $1", [
      roomId,
    ]);
    expect(rows).toEqual([
      {
        payload: {
          roomId,
          updatedBy: alice.id,
          changes: { name: 'New name', description: 'second', addMemberPolicy: 'ADMIN_ONLY' },
          audience: { kind: 'room', roomId },
        },
      },
    ]);
    // Null clears the description; a repeat of the same values changes nothing and emits nothing.
    expect((await patch(alice, roomId, { description: null })).body.data.description).toBeNull();
    expectOk(await patch(alice, roomId, { description: null, name: 'New name' }));
    expectOk(await patch(alice, roomId, {}));
    expect(await events('room.updated', roomId)).toBe(2);
  });

  test('an admin may update; a member gets 403 forbidden and a non-member 404, with nothing changed', async () => {
    const { roomId, bob, carol, eve } = await staffedRoom();
    expectOk(await patch(bob, roomId, { name: 'By admin' }));
    expectError(await patch(carol, roomId, { name: 'By member' }), 403, 'forbidden');
    expectError(await patch(eve, roomId, { name: 'By stranger' }), 404, 'room_not_found');
    expectError(await patch(eve, newId(), { name: 'Nowhere' }), 404, 'room_not_found');
    expect((await roomRow(roomId)).name).toBe('By admin');
    expect(await events('room.updated', roomId)).toBe(1);
  });

  test('a name of white space only, an empty or too long name, an unknown field or policy is 400 and changes nothing', async () => {
    const { roomId, alice } = await staffedRoom();
    expectError(await patch(alice, roomId, { name: ' \t\n\u3000 ' }), 400, 'validation_failed', 'body.name');
    expectError(await patch(alice, roomId, { name: '' }), 400, 'validation_failed', 'body.name');
    expectError(await patch(alice, roomId, { name: 'x'.repeat(201) }), 400, 'validation_failed', 'body.name');
    expectError(await patch(alice, roomId, { name: 'ok', colour: 'red' }), 400, 'validation_failed', 'body.colour');
    expectError(await patch(alice, roomId, { addMemberPolicy: 'EVERYONE' }), 400, 'validation_failed', 'body.addMemberPolicy');
    expectError(await patch(alice, roomId, { description: 'x'.repeat(2001) }), 400, 'validation_failed', 'body.description');
    expect(await roomRow(roomId)).toMatchObject({ name: 'Team', description: 'first', add_member_policy: 'ALL_MEMBERS' });
    expect(await events('room.updated', roomId)).toBe(0);
  });

  test('creating a room trims the name and refuses one of white space only', async () => {
    const alice = await tenant.account();
    const res = await call(base, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'GROUP', name: '  Padded  ' } });
    expectOk(res, 201);
    expect(res.body.data.name).toBe('Padded');
    expectError(
      await call(base, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'GROUP', name: '   ' } }),
      400,
      'validation_failed',
      'body.name',
    );
    expect(await count(platform.db, 'select count(*) as n from rooms where created_by = $1', [alice.id])).toBe(1);
  });

  test('PRIVATE, SELF and REMINDER rooms cannot be renamed: 409 unsupported_room_type', async () => {
    const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
    const rooms = [
      (await call(base, 'POST', '/api/v1/rooms/private', { token: alice.token, body: { accountId: bob.id } })).body.data.id,
      (await call(base, 'POST', '/api/v1/rooms/self', { token: alice.token })).body.data.id,
      (await call(base, 'POST', '/api/v1/rooms/reminders', { token: alice.token })).body.data.id,
    ];
    for (const roomId of rooms) {
      expectError(await patch(alice, roomId, { name: 'Renamed' }), 409, 'unsupported_room_type');
      expect((await roomRow(roomId)).name).toBeNull();
    }
  });
});

describe('delete', () => {
  test('the owner deletes: 404 for everyone, gone from every list, members removed, messages kept, one room.deleted to the former members', async () => {
    const { roomId, alice, bob, carol } = await staffedRoom();
    await call(base, 'POST', `/api/v1/rooms/${roomId}/messages`, { token: carol.token, body: { text: 'still here' } });
    expectOk(await call(base, 'POST', `/api/v1/rooms/${roomId}/archive`, { token: carol.token }));
    const res = await remove(alice, roomId);
    expectOk(res);
    expect(res.body.data).toEqual({ roomId, status: 'deleted' });

    for (const who of [alice, bob, carol]) {
      expectError(await call(base, 'GET', `/api/v1/rooms/${roomId}`, { token: who.token }), 404, 'room_not_found');
      for (const query of ['', '?archived=true']) {
        const list = await call(base, 'GET', `/api/v1/rooms${query}`, { token: who.token });
        expect(list.body.data.map((r: { id: string }) => r.id)).not.toContain(roomId);
      }
    }
    expectError(
      await call(base, 'POST', `/api/v1/rooms/${roomId}/messages`, { token: carol.token, body: { text: 'too late' } }),
      404,
      'room_not_found',
    );
    expectError(await call(base, 'GET', `/api/v1/rooms/${roomId}/messages`, { token: carol.token }), 404, 'room_not_found');
    expectError(await call(base, 'GET', `/api/v1/rooms/${roomId}/members`, { token: alice.token }), 404, 'room_not_found');
    expectError(await call(base, 'POST', `/api/v1/rooms/${roomId}/leave`, { token: bob.token }), 404, 'room_not_found');
    expectError(await call(base, 'POST', `/api/v1/rooms/${roomId}/mute`, { token: bob.token }), 404, 'room_not_found');
    expectError(await call(base, 'POST', `/api/v1/rooms/${roomId}/read`, { token: bob.token }), 404, 'room_not_found');
    expectError(await patch(alice, roomId, { name: 'Zombie' }), 404, 'room_not_found');

    const row = await roomRow(roomId);
    expect(row.deleted_at).not.toBeNull();
    expect(row.member_count).toBe(0);
    expect(await count(platform.db, 'select count(*) as n from room_members where room_id = $1', [roomId])).toBe(0);
    expect(await count(platform.db, 'select count(*) as n from messages where room_id = $1', [roomId])).toBe(1);
    const { rows } = await platform.db.query("select payload from outbox where topic = 'room.deleted' and payload->>'roomId' = $1", [
      roomId,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].payload).toMatchObject({ roomId, deletedBy: alice.id, audience: { kind: 'accounts' } });
    expect(new Set(rows[0].payload.audience.accountIds)).toEqual(new Set([alice.id, bob.id, carol.id]));

    // A repeat finds no room.
    expectError(await remove(alice, roomId), 404, 'room_not_found');
    expect(await events('room.deleted', roomId)).toBe(1);
  });

  test('an admin and a member get 403, a non-member 404; nothing is deleted', async () => {
    const { roomId, bob, carol, eve } = await staffedRoom();
    expectError(await remove(bob, roomId), 403, 'forbidden');
    expectError(await remove(carol, roomId), 403, 'forbidden');
    expectError(await remove(eve, roomId), 404, 'room_not_found');
    expect((await roomRow(roomId)).deleted_at).toBeNull();
    expect(await count(platform.db, 'select count(*) as n from room_members where room_id = $1', [roomId])).toBe(3);
  });

  test('pending join requests of a deleted room are cancelled', async () => {
    const { roomId, alice, carol } = await staffedRoom('ALL_MEMBERS_WITH_APPROVAL');
    const dave = await tenant.account();
    const add = await call(base, 'POST', `/api/v1/rooms/${roomId}/members`, { token: carol.token, body: { accountIds: [dave.id] } });
    expect(add.body.data.status).toBe('PENDING_APPROVAL');
    expectOk(await remove(alice, roomId));
    const { rows } = await platform.db.query('select status, resolved_by from join_requests where room_id = $1', [roomId]);
    expect(rows).toEqual([{ status: 'CANCELLED', resolved_by: alice.id }]);
  });

  test('PRIVATE, SELF and REMINDER rooms cannot be deleted: 409 unsupported_room_type', async () => {
    const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
    for (const [path, body] of [
      ['/api/v1/rooms/private', { accountId: bob.id }],
      ['/api/v1/rooms/self', undefined],
      ['/api/v1/rooms/reminders', undefined],
    ] as const) {
      const roomId = (await call(base, 'POST', path, { token: alice.token, body })).body.data.id;
      expectError(await remove(alice, roomId), 409, 'unsupported_room_type');
      expect((await roomRow(roomId)).deleted_at).toBeNull();
    }
  });
});

describe('reminder room', () => {
  test('get-or-create: one REMINDER room with the caller and the tenant reminder bot, also under concurrent calls', async () => {
    const alice = await tenant.account();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => call(base, 'POST', '/api/v1/rooms/reminders', { token: alice.token })),
    );
    for (const r of results) expectOk(r);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    const room = results[0]!.body.data;
    expect(room).toMatchObject({
      type: 'REMINDER',
      name: null,
      memberCount: 2,
      myRole: 'MEMBER',
      createdBy: alice.id,
      unreadCount: 0,
      lastMessage: null,
    });
    const again = await call(base, 'POST', '/api/v1/rooms/reminders', { token: alice.token });
    expect(again.body.data.id).toBe(room.id);
    expect(await count(platform.db, "select count(*) as n from rooms where type = 'REMINDER' and created_by = $1", [alice.id])).toBe(1);
    expect(await events('room.created', room.id)).toBe(1);

    const botId = reminderBotId(tenant.moduleCode, tenant.customer);
    const members = await call(base, 'GET', `/api/v1/rooms/${room.id}/members`, { token: alice.token });
    expectOk(members);
    expect(
      members.body.data.map((m: { accountId: string; accountType: string; role: string }) => [m.accountId, m.accountType, m.role]).sort(),
    ).toEqual(
      [
        [alice.id, 'USER', 'MEMBER'],
        [botId, 'BOT', 'MEMBER'],
      ].sort(),
    );
    const { rows } = await platform.db.query(
      'select module_code, customer_account_id, account_type, status, display_name from accounts where id = $1',
      [botId],
    );
    expect(rows).toEqual([
      {
        module_code: tenant.moduleCode,
        customer_account_id: tenant.customer,
        account_type: 'BOT',
        status: 'ACTIVE',
        display_name: 'Reminders',
      },
    ]);
  });

  test('one bot per module and customer: shared by the accounts of a tenant, another for another tenant', async () => {
    const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
    const other = await (await platform.tenant()).account();
    const rooms = await Promise.all([alice, bob, other].map((who) => call(base, 'POST', '/api/v1/rooms/reminders', { token: who.token })));
    expect(new Set(rooms.map((r) => r.body.data.id)).size).toBe(3);
    const botOf = async (roomId: string, who: TestAccount) =>
      (await call(base, 'GET', `/api/v1/rooms/${roomId}/members`, { token: who.token })).body.data.find(
        (m: { accountType: string }) => m.accountType === 'BOT',
      ).accountId;
    const [a, b, o] = await Promise.all([
      botOf(rooms[0]!.body.data.id, alice),
      botOf(rooms[1]!.body.data.id, bob),
      botOf(rooms[2]!.body.data.id, other),
    ]);
    expect(a).toBe(b);
    expect(o).not.toBe(a);
    expect(await count(platform.db, "select count(*) as n from accounts where id = $1 and account_type = 'BOT'", [a])).toBe(1);
  });

  test('the reminder room takes no members and cannot be left', async () => {
    const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
    const roomId = (await call(base, 'POST', '/api/v1/rooms/reminders', { token: alice.token })).body.data.id;
    expectError(
      await call(base, 'POST', `/api/v1/rooms/${roomId}/members`, { token: alice.token, body: { accountIds: [bob.id] } }),
      409,
      'unsupported_room_type',
    );
    expectError(await call(base, 'POST', `/api/v1/rooms/${roomId}/leave`, { token: alice.token }), 409, 'unsupported_room_type');
    expect(await count(platform.db, 'select count(*) as n from room_members where room_id = $1', [roomId])).toBe(2);
  });
});
