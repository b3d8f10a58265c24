// The room list's per-caller fields over the real listener: exact unread counts (others' sends, own sends, read
// marks, recalls, hides, thread replies), the last message, pinned rooms first across pages, hand-made cursors,
// and unread counts that match a recount after concurrent sends and read marks.
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

interface Room {
  id: string;
  unreadCount: number;
  lastMessage: { id: string; senderId: string; text: string | null; createdAt: string } | null;
  pinned: boolean;
}

async function group(owner: TestAccount, members: TestAccount[] = [], name = 'Room'): Promise<string> {
  const res = await call(base, 'POST', '/api/v1/rooms', {
    token: owner.token,
    body: { type: 'GROUP', name, memberIds: members.map((m) => m.id) },
  });
  expectOk(res, 201);
  return res.body.data.id;
}

async function send(who: TestAccount, roomId: string, text = 'hello'): Promise<{ id: string; createdAt: string }> {
  const res = await call(base, 'POST', `/api/v1/rooms/${roomId}/messages`, { token: who.token, body: { text } });
  expectOk(res, 201);
  return res.body.data;
}

async function listed(who: TestAccount, roomId: string): Promise<Room> {
  const res = await call(base, 'GET', '/api/v1/rooms?limit=100', { token: who.token });
  expectOk(res);
  const room = res.body.data.find((r: Room) => r.id === roomId);
  if (!room) throw new Error(`room ${roomId} is not in the list`);
  return room;
}

async function detail(who: TestAccount, roomId: string): Promise<Room> {
  const res = await call(base, 'GET', `/api/v1/rooms/${roomId}`, { token: who.token });
  expectOk(res);
  return res.body.data;
}

const markRead = (who: TestAccount, roomId: string, body?: { messageId: string }) =>
  call(base, 'POST', `/api/v1/rooms/${roomId}/read`, { token: who.token, ...(body ? { body } : {}) });

/** Decision 5 of the brief, counted from scratch. */
const recount = (who: TestAccount, roomId: string) =>
  count(
    platform.db,
    `select count(*) as n from messages x join room_members m on m.room_id = x.room_id and m.account_id = $2
      where x.room_id = $1 and x.thread_root_id is null and x.seq > m.last_read_seq and x.sender_id <> $2 and x.recalled_at is null
        and not exists (select 1 from message_hides h where h.account_id = $2 and h.message_id = x.id)`,
    [roomId, who.id],
  );

async function reply(who: TestAccount, roomId: string, rootId: string): Promise<void> {
  const { rows } = await platform.db.query<{ last_seq: string }>(
    'update rooms set last_seq = last_seq + 1 where id = $1 returning last_seq',
    [roomId],
  );
  await platform.db.query(
    `insert into messages (id, room_id, seq, sender_id, type, text, thread_root_id, created_at) values ($1, $2, $3, $4, 'TEXT', 'a reply', $5, now())`,
    [newId(), roomId, rows[0]!.last_seq, who.id, rootId],
  );
}

describe('unread counts and last message', () => {
  test('sends by others count, own sends do not, and read marks bring the count down exactly', async () => {
    const [alice, bob, carol] = await Promise.all([tenant.account(), tenant.account(), tenant.account()]);
    const roomId = await group(alice, [bob, carol]);
    expect(await listed(alice, roomId)).toMatchObject({ unreadCount: 0, lastMessage: null });

    const b1 = await send(bob, roomId, 'b1');
    const b2 = await send(bob, roomId, 'b2');
    await send(bob, roomId, 'b3');
    await send(carol, roomId, 'c1');
    await send(carol, roomId, 'c2');
    const a1 = await send(alice, roomId, 'a1');

    expect((await listed(alice, roomId)).unreadCount).toBe(5);
    expect((await listed(bob, roomId)).unreadCount).toBe(3);
    expect((await listed(carol, roomId)).unreadCount).toBe(4);
    const last = (await listed(bob, roomId)).lastMessage;
    expect(last).toEqual({ id: a1.id, senderId: alice.id, text: 'a1', createdAt: a1.createdAt });
    expect((await detail(alice, roomId)).unreadCount).toBe(5);

    const up = await markRead(alice, roomId, { messageId: b2.id });
    expectOk(up);
    expect(up.body.data).toEqual({ roomId, lastReadSeq: 2, unreadCount: 3, mentionCount: 0 });
    expect((await listed(alice, roomId)).unreadCount).toBe(3);
    expect((await detail(alice, roomId)).unreadCount).toBe(3);

    // A mark behind the current one changes nothing.
    const back = await markRead(alice, roomId, { messageId: b1.id });
    expect(back.body.data).toEqual({ roomId, lastReadSeq: 2, unreadCount: 3, mentionCount: 0 });

    const all = await markRead(alice, roomId);
    expect(all.body.data).toEqual({ roomId, lastReadSeq: 6, unreadCount: 0, mentionCount: 0 });
    expect((await listed(alice, roomId)).unreadCount).toBe(0);
    // The others' counts are their own.
    expect((await listed(bob, roomId)).unreadCount).toBe(3);

    await send(bob, roomId, 'b4');
    expect((await listed(alice, roomId)).unreadCount).toBe(1);
    expect(await recount(alice, roomId)).toBe(1);
  });

  test('recalled and hidden messages do not count; the last message skips hidden ones and shows a recalled one without text', async () => {
    const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
    const roomId = await group(alice, [bob]);
    const m1 = await send(bob, roomId, 'one');
    const m2 = await send(bob, roomId, 'two');
    const m3 = await send(bob, roomId, 'three');
    expect((await listed(alice, roomId)).unreadCount).toBe(3);

    await platform.db.query('update messages set recalled_at = now() where id = $1', [m3.id]);
    let room = await listed(alice, roomId);
    expect(room.unreadCount).toBe(2);
    expect(room.lastMessage).toEqual({ id: m3.id, senderId: bob.id, text: null, createdAt: m3.createdAt });

    await platform.db.query(
      'insert into message_hides (account_id, message_id, room_id, hidden_at) values ($1, $2, $3, now()), ($1, $4, $3, now())',
      [alice.id, m2.id, roomId, m3.id],
    );
    room = await listed(alice, roomId);
    expect(room.unreadCount).toBe(1);
    expect(room.lastMessage).toMatchObject({ id: m1.id, text: 'one' });
    // Bob hid nothing: his view still ends with the recalled message.
    expect((await listed(bob, roomId)).lastMessage).toMatchObject({ id: m3.id, text: null });

    // Thread replies count in their thread, not in the room, and are never the room's last message.
    await reply(bob, roomId, m1.id);
    room = await listed(alice, roomId);
    expect(room.unreadCount).toBe(1);
    expect(room.lastMessage).toMatchObject({ id: m1.id });
    expect(room.unreadCount).toBe(await recount(alice, roomId));
  });

  test('read up to a message of another room or an unknown message is 404 message_not_found and moves nothing', async () => {
    const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
    const roomId = await group(alice, [bob]);
    const otherRoom = await group(alice, [bob], 'Other');
    await send(bob, roomId);
    const elsewhere = await send(bob, otherRoom);
    expectError(await markRead(alice, roomId, { messageId: elsewhere.id }), 404, 'message_not_found');
    expectError(await markRead(alice, roomId, { messageId: newId() }), 404, 'message_not_found');
    expectError(await markRead(alice, roomId, { messageId: 'nope' } as never), 400, 'validation_failed', 'body.messageId');
    expect(
      await count(platform.db, 'select last_read_seq as n from room_members where room_id = $1 and account_id = $2', [roomId, alice.id]),
    ).toBe(0);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'room.read' and payload->>'roomId' = $1", [roomId]),
    ).toBe(0);
  });

  test('a read mark emits room.read to the reader only, and only when it moves', async () => {
    const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
    const roomId = await group(alice, [bob]);
    await send(bob, roomId);
    expectOk(await markRead(alice, roomId));
    expectOk(await markRead(alice, roomId));
    const { rows } = await platform.db.query("select payload from outbox where topic = 'room.read' and payload->>'roomId' = $1", [roomId]);
    expect(rows).toEqual([
      { payload: { roomId, accountId: alice.id, lastReadSeq: 1, audience: { kind: 'accounts', accountIds: [alice.id] } } },
    ]);
  });

  test('a non-member gets 404 on read and the room is not in its list', async () => {
    const [alice, eve] = await Promise.all([tenant.account(), tenant.account()]);
    const roomId = await group(alice);
    expectError(await markRead(eve, roomId), 404, 'room_not_found');
    expectError(await markRead(eve, newId()), 404, 'room_not_found');
    const res = await call(base, 'GET', '/api/v1/rooms', { token: eve.token });
    expect(res.body.data).toEqual([]);
  });
});

describe('pinned rooms first', () => {
  test('pinned rooms lead, each part most recently active first, and paging with limit=2 neither skips nor repeats', async () => {
    const alice = await tenant.account();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(await group(alice, [], `P${i}`));
    // Distinct activity times, oldest first: ids[6] is the most recent.
    for (let i = 0; i < ids.length; i++) {
      await platform.db.query('update rooms set last_activity_at = $2 where id = $1', [
        ids[i],
        new Date(Date.UTC(2031, 0, 1, 0, i)).toISOString(),
      ]);
    }
    for (const i of [0, 3, 5]) {
      const res = await call(base, 'PATCH', `/api/v1/rooms/${ids[i]}/preferences`, { token: alice.token, body: { pinned: true } });
      expectOk(res);
      expect(res.body.data.pinned).toBe(true);
    }
    const expected = [ids[5], ids[3], ids[0], ids[6], ids[4], ids[2], ids[1]];
    for (const limit of [1, 2, 3, 100]) {
      const pages = await walkPages(
        async (cursor) => {
          const res = await call(base, 'GET', `/api/v1/rooms?limit=${limit}${cursorParam(cursor)}`, { token: alice.token });
          expectOk(res);
          return res;
        },
        chatCursorWhileMore,
        20,
      );
      const seen: Room[] = pages.flatMap((res) => res.body.data);
      expect(seen.map((r) => r.id)).toEqual(expected);
      expect(seen.map((r) => r.pinned)).toEqual([true, true, true, false, false, false, false]);
    }
    // Unpinning puts the room back among the others.
    expectOk(await call(base, 'PATCH', `/api/v1/rooms/${ids[5]}/preferences`, { token: alice.token, body: { pinned: false } }));
    const res = await call(base, 'GET', '/api/v1/rooms', { token: alice.token });
    expect(res.body.data.map((r: Room) => r.id)).toEqual([ids[3], ids[0], ids[6], ids[5], ids[4], ids[2], ids[1]]);
  });

  test('pins are per caller', async () => {
    const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
    const older = await group(alice, [bob], 'Older');
    await platform.db.query("update rooms set last_activity_at = now() - interval '1 hour' where id = $1", [older]);
    const newer = await group(alice, [bob], 'Newer');
    expectOk(await call(base, 'PATCH', `/api/v1/rooms/${older}/preferences`, { token: alice.token, body: { pinned: true } }));
    expect((await call(base, 'GET', '/api/v1/rooms', { token: alice.token })).body.data.map((r: Room) => r.id)).toEqual([older, newer]);
    expect((await call(base, 'GET', '/api/v1/rooms', { token: bob.token })).body.data.map((r: Room) => r.id)).toEqual([newer, older]);
  });
});

describe('cursors', () => {
  test('hand-made cursors are 400 invalid_cursor, never a 500', async () => {
    const alice = await tenant.account();
    const raw = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const bad = [
      raw({ p: 0, a: '+275760-09-13T00:00:00.000Z', i: newId() }),
      raw({ p: 0, a: '0000-01-01T00:00:00.000Z', i: newId() }),
      raw({ p: 0, a: '0000-01-01', i: newId() }),
      raw({ p: 1, a: '2030-02-30T00:00:00.000Z', i: newId() }),
      raw({ p: 2, a: '2030-01-01T00:00:00.000Z', i: newId() }),
      raw({ a: '2030-01-01T00:00:00.000Z', i: newId() }),
      raw({ p: 0, a: '2030-01-01T00:00:00.000Z', i: 'x' }),
      raw('1'),
      raw(1),
      '1',
      'not base64!',
    ];
    for (const cursor of bad) {
      expectError(
        await call(base, 'GET', `/api/v1/rooms?cursor=${encodeURIComponent(cursor)}`, { token: alice.token }),
        400,
        'invalid_cursor',
        'query.cursor',
      );
    }
  });
});

describe('exactness under concurrency', () => {
  test('concurrent senders, a reader marking read meanwhile, recalls and hides: the list equals a recount', async () => {
    const reader = await tenant.account();
    const senders = await Promise.all(Array.from({ length: 5 }, () => tenant.account()));
    const roomId = await group(reader, senders, 'Busy');
    const marks: number[] = [];
    const sending = Promise.all(
      senders.map(async (s, i) => {
        const sent: string[] = [];
        for (let n = 0; n < 12; n++) sent.push((await send(s, roomId, `s${i}-${n}`)).id);
        return sent;
      }),
    );
    const reading = (async () => {
      for (let n = 0; n < 15; n++) {
        const res = await markRead(reader, roomId);
        expectOk(res);
        marks.push(res.body.data.lastReadSeq);
      }
    })();
    const [sent] = await Promise.all([sending, reading, send(reader, roomId, 'mine')]);
    // The read mark never went backwards.
    expect(marks).toEqual([...marks].sort((a, b) => a - b));

    const flat = sent.flat();
    await platform.db.query('update messages set recalled_at = now() where id = any($1::uuid[])', [flat.slice(0, 3)]);
    await platform.db.query(
      'insert into message_hides (account_id, message_id, room_id, hidden_at) select $1, unnest($2::uuid[]), $3, now() on conflict do nothing',
      [reader.id, flat.slice(-4), roomId],
    );
    const listedCount = (await listed(reader, roomId)).unreadCount;
    expect(listedCount).toBe(await recount(reader, roomId));
    expect((await detail(reader, roomId)).unreadCount).toBe(listedCount);
    const res = await markRead(reader, roomId);
    expect(res.body.data).toMatchObject({ lastReadSeq: 61, unreadCount: 0 });
    expect((await listed(reader, roomId)).unreadCount).toBe(0);
    for (const s of senders) expect((await listed(s, roomId)).unreadCount).toBe(await recount(s, roomId));
  });
});
