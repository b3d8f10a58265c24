// The caller's own settings in a room over the real listener: archive/unarchive, mute (until an instant or
// permanently) and unmute, preferences; idempotent repeats, bad input that changes nothing, per-user events.
import { newId } from '../../platform/ids.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';

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

async function pair(): Promise<{ roomId: string; alice: TestAccount; bob: TestAccount; eve: TestAccount }> {
  const [alice, bob, eve] = await Promise.all([tenant.account(), tenant.account(), tenant.account()]);
  const res = await call(base, 'POST', '/api/v1/rooms', {
    token: alice.token,
    body: { type: 'GROUP', name: 'Prefs', memberIds: [bob.id] },
  });
  expectOk(res, 201);
  return { roomId: res.body.data.id, alice, bob, eve };
}

const post = (who: TestAccount, path: string, body?: unknown) =>
  call(base, 'POST', path, { token: who.token, ...(body === undefined ? {} : { body }) });
const prefsEvents = (roomId: string) =>
  count(platform.db, "select count(*) as n from outbox where topic = 'room.preferences_changed' and payload->>'roomId' = $1", [roomId]);
const memberRow = async (roomId: string, accountId: string) =>
  (
    await platform.db.query(
      'select archived, pinned, pinned_at, notification_level, muted_until::text as muted_until from room_members where room_id = $1 and account_id = $2',
      [roomId, accountId],
    )
  ).rows[0];
const inHours = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

describe('archive', () => {
  test('archive hides the room from the default list for the caller only; unarchive brings it back; repeats change nothing', async () => {
    const { roomId, alice, bob } = await pair();
    const res = await post(alice, `/api/v1/rooms/${roomId}/archive`);
    expectOk(res);
    expect(res.body.data).toMatchObject({ id: roomId, archived: true });
    expectOk(await post(alice, `/api/v1/rooms/${roomId}/archive`));
    const ids = async (who: TestAccount, q = '') =>
      (await call(base, 'GET', `/api/v1/rooms${q}`, { token: who.token })).body.data.map((r: { id: string }) => r.id);
    expect(await ids(alice)).not.toContain(roomId);
    expect(await ids(alice, '?archived=true')).toEqual([roomId]);
    expect(await ids(alice, '?archived=true&q=pref')).toEqual([roomId]);
    expect(await ids(alice, '?archived=true&q=other')).toEqual([]);
    expect(await ids(bob)).toContain(roomId);
    expect(await prefsEvents(roomId)).toBe(1);
    const { rows } = await platform.db.query(
      "select payload from outbox where topic = 'room.preferences_changed' and payload->>'roomId' = $1",
      [roomId],
    );
    expect(rows[0].payload).toEqual({
      roomId,
      accountId: alice.id,
      archived: true,
      pinned: false,
      notificationLevel: 'ALL',
      muted: false,
      mutedUntil: null,
      audience: { kind: 'accounts', accountIds: [alice.id] },
    });

    const back = await post(alice, `/api/v1/rooms/${roomId}/unarchive`);
    expect(back.body.data.archived).toBe(false);
    expectOk(await post(alice, `/api/v1/rooms/${roomId}/unarchive`));
    expect(await ids(alice)).toContain(roomId);
    expect(await prefsEvents(roomId)).toBe(2);
  });

  test('a non-member gets 404 on every personal operation and nothing is written', async () => {
    const { roomId, eve } = await pair();
    for (const [method, path, body] of [
      ['POST', 'archive'],
      ['POST', 'unarchive'],
      ['POST', 'mute', { until: inHours(1) }],
      ['DELETE', 'mute'],
      ['PATCH', 'preferences', { pinned: true }],
      ['POST', 'read'],
    ] as const) {
      expectError(await call(base, method, `/api/v1/rooms/${roomId}/${path}`, { token: eve.token, body }), 404, 'room_not_found');
      expectError(await call(base, method, `/api/v1/rooms/${newId()}/${path}`, { token: eve.token, body }), 404, 'room_not_found');
    }
    expect(await prefsEvents(roomId)).toBe(0);
  });
});

describe('mute', () => {
  test('without a body, or with until null, the mute is permanent; the list shows it', async () => {
    const { roomId, alice, bob } = await pair();
    const res = await post(alice, `/api/v1/rooms/${roomId}/mute`);
    expectOk(res);
    expect(res.body.data).toMatchObject({
      accountId: alice.id,
      role: 'OWNER',
      muted: true,
      mutedUntil: null,
      notificationLevel: 'ALL',
      pinned: false,
      archived: false,
    });
    expect((await memberRow(roomId, alice.id)).muted_until).toBe('infinity');
    expect((await post(bob, `/api/v1/rooms/${roomId}/mute`, { until: null })).body.data).toMatchObject({ muted: true, mutedUntil: null });
    const listed = (await call(base, 'GET', `/api/v1/rooms/${roomId}`, { token: alice.token })).body.data;
    expect(listed).toMatchObject({ muted: true, mutedUntil: null });
    // A repeat answers the same and writes no event.
    expectOk(await post(alice, `/api/v1/rooms/${roomId}/mute`, {}));
    expect(await prefsEvents(roomId)).toBe(2);
  });

  test('until an instant; an instant in the past is 400 and changes nothing; unmute is idempotent', async () => {
    const { roomId, alice } = await pair();
    const until = inHours(2);
    const res = await post(alice, `/api/v1/rooms/${roomId}/mute`, { until });
    expectOk(res);
    expect(res.body.data).toMatchObject({ muted: true, mutedUntil: until });
    expect((await call(base, 'GET', '/api/v1/rooms', { token: alice.token })).body.data[0]).toMatchObject({
      id: roomId,
      muted: true,
      mutedUntil: until,
    });

    for (const bad of [inHours(-1), 'tomorrow', '9999-12-31T23:59:59-23:00']) {
      expectError(await post(alice, `/api/v1/rooms/${roomId}/mute`, { until: bad }), 400, 'validation_failed', 'body.until');
    }
    expectError(
      await post(alice, `/api/v1/rooms/${roomId}/mute`, { until: until, forever: true }),
      400,
      'validation_failed',
      'body.forever',
    );
    expect(new Date((await memberRow(roomId, alice.id)).muted_until).toISOString()).toBe(until);
    expect(await prefsEvents(roomId)).toBe(1);

    const off = await call(base, 'DELETE', `/api/v1/rooms/${roomId}/mute`, { token: alice.token });
    expectOk(off);
    expect(off.body.data).toMatchObject({ muted: false, mutedUntil: null });
    expectOk(await call(base, 'DELETE', `/api/v1/rooms/${roomId}/mute`, { token: alice.token }));
    expect((await memberRow(roomId, alice.id)).muted_until).toBeNull();
    expect(await prefsEvents(roomId)).toBe(2);
  });

  test('a mute whose end has passed reads as not muted', async () => {
    const { roomId, alice } = await pair();
    await platform.db.query("update room_members set muted_until = now() - interval '1 minute' where room_id = $1 and account_id = $2", [
      roomId,
      alice.id,
    ]);
    expect((await call(base, 'GET', `/api/v1/rooms/${roomId}`, { token: alice.token })).body.data).toMatchObject({
      muted: false,
      mutedUntil: null,
    });
  });
});

describe('preferences', () => {
  test('sets notification level, pin, archive and mute together and answers the caller as a member', async () => {
    const { roomId, alice } = await pair();
    const until = inHours(5);
    const res = await call(base, 'PATCH', `/api/v1/rooms/${roomId}/preferences`, {
      token: alice.token,
      body: { notificationLevel: 'MENTIONS', pinned: true, archived: true, mutedUntil: until },
    });
    expectOk(res);
    expect(res.body.data).toEqual({
      accountId: alice.id,
      role: 'OWNER',
      joinedAt: expect.any(String),
      displayName: expect.any(String),
      avatarUrl: null,
      accountType: 'USER',
      muted: true,
      mutedUntil: until,
      notificationLevel: 'MENTIONS',
      pinned: true,
      archived: true,
    });
    const row = await memberRow(roomId, alice.id);
    expect(row).toMatchObject({ archived: true, pinned: true, notification_level: 'MENTIONS' });
    expect(row.pinned_at).not.toBeNull();

    const forever = await call(base, 'PATCH', `/api/v1/rooms/${roomId}/preferences`, { token: alice.token, body: { muted: true } });
    expect(forever.body.data).toMatchObject({ muted: true, mutedUntil: null, notificationLevel: 'MENTIONS', pinned: true });
    const off = await call(base, 'PATCH', `/api/v1/rooms/${roomId}/preferences`, {
      token: alice.token,
      body: { muted: false, pinned: false },
    });
    expect(off.body.data).toMatchObject({ muted: false, mutedUntil: null, pinned: false });
    expect((await memberRow(roomId, alice.id)).pinned_at).toBeNull();
    // An empty body or a repeat answers the current state and writes nothing.
    expectOk(await call(base, 'PATCH', `/api/v1/rooms/${roomId}/preferences`, { token: alice.token, body: {} }));
    expectOk(
      await call(base, 'PATCH', `/api/v1/rooms/${roomId}/preferences`, { token: alice.token, body: { muted: false, pinned: false } }),
    );
    expect(await prefsEvents(roomId)).toBe(3);
  });

  test('bad input is 400 and changes nothing', async () => {
    const { roomId, alice } = await pair();
    const bad: Array<[unknown, string]> = [
      [{ muted: false, mutedUntil: inHours(1) }, 'body.mutedUntil'],
      [{ mutedUntil: inHours(-1) }, 'body.mutedUntil'],
      [{ mutedUntil: null }, 'body.mutedUntil'],
      [{ notificationLevel: 'LOUD' }, 'body.notificationLevel'],
      [{ pinned: 'yes' }, 'body.pinned'],
      [{ archived: true, colour: 'red' }, 'body.colour'],
    ];
    for (const [body, location] of bad) {
      expectError(
        await call(base, 'PATCH', `/api/v1/rooms/${roomId}/preferences`, { token: alice.token, body }),
        400,
        'validation_failed',
        location,
      );
    }
    expect(await memberRow(roomId, alice.id)).toEqual({
      archived: false,
      pinned: false,
      pinned_at: null,
      notification_level: 'ALL',
      muted_until: null,
    });
    expect(await prefsEvents(roomId)).toBe(0);
  });
});
