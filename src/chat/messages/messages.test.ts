// Messages over the real listener: send, membership, keyset scroll in both directions, idempotent sends.
import { encodeCursor } from '../../platform/http/cursor.js';
import { historyList } from './service.js';
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

interface Msg {
  id: string;
  text: string;
  createdAt: string;
}

async function newRoom(owner: TestAccount, memberIds: string[] = []): Promise<string> {
  const res = await call(base, 'POST', '/api/v1/rooms', { token: owner.token, body: { type: 'GROUP', name: 'Msgs', memberIds } });
  expectOk(res, 201);
  return res.body.data.id;
}
const send = (who: TestAccount, roomId: string, body: Record<string, unknown>) =>
  call(base, 'POST', `/api/v1/rooms/${roomId}/messages`, { token: who.token, body });
const list = (who: TestAccount, roomId: string, query = '') =>
  call(base, 'GET', `/api/v1/rooms/${roomId}/messages${query}`, { token: who.token });
const messagesIn = (roomId: string) => count(platform.db, 'select count(*) as n from messages where room_id = $1', [roomId]);
const lastSeq = async (roomId: string) =>
  Number((await platform.db.query('select last_seq from rooms where id = $1', [roomId])).rows[0]?.last_seq);

describe('send and get', () => {
  test('send answers 201 with Location; the message reads back by id', async () => {
    const alice = await tenant.account();
    const roomId = await newRoom(alice);
    const res = await send(alice, roomId, { text: 'hello' });
    expectOk(res, 201);
    const m = res.body.data;
    expect(res.headers.get('location')).toBe(`/api/v1/rooms/${roomId}/messages/${m.id}`);
    expect(m).toMatchObject({
      roomId,
      senderId: alice.id,
      type: 'TEXT',
      text: 'hello',
      clientMessageId: null,
      threadRootId: null,
      editedAt: null,
      recalled: false,
      hiddenForMe: false,
    });
    const got = await call(base, 'GET', `/api/v1/rooms/${roomId}/messages/${m.id}`, { token: alice.token });
    expectOk(got);
    expect(got.body.data).toEqual(m);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'message.created' and payload->>'messageId' = $1", [m.id]),
    ).toBe(1);
    // Sending bumps the room's last activity to the message time.
    const room = await call(base, 'GET', `/api/v1/rooms/${roomId}`, { token: alice.token });
    expect(room.body.data.lastActivityAt).toBe(m.createdAt);
  });

  test('a non-member gets 404 room_not_found for send, list and get, and nothing is inserted', async () => {
    const [alice, eve] = await Promise.all([tenant.account(), tenant.account()]);
    const roomId = await newRoom(alice);
    const sent = await send(alice, roomId, { text: 'secret' });
    const seqBefore = await lastSeq(roomId);
    expectError(await send(eve, roomId, { text: 'intrusion' }), 404, 'room_not_found');
    expectError(await send(eve, roomId, { text: 'intrusion', clientMessageId: 'c1' }), 404, 'room_not_found');
    expectError(await list(eve, roomId), 404, 'room_not_found');
    expectError(
      await call(base, 'GET', `/api/v1/rooms/${roomId}/messages/${sent.body.data.id}`, { token: eve.token }),
      404,
      'room_not_found',
    );
    expect(await messagesIn(roomId)).toBe(1);
    expect(await lastSeq(roomId)).toBe(seqBefore);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'message.created' and payload->>'roomId' = $1", [roomId]),
    ).toBe(1);
  });

  test('a room that does not exist is 404 room_not_found', async () => {
    const alice = await tenant.account();
    expectError(await send(alice, newId(), { text: 'x' }), 404, 'room_not_found');
    expectError(await list(alice, newId()), 404, 'room_not_found');
  });

  test('a message of another room is 404 message_not_found, an unknown id too', async () => {
    const alice = await tenant.account();
    const [roomA, roomB] = [await newRoom(alice), await newRoom(alice)];
    const inB = (await send(alice, roomB, { text: 'in B' })).body.data.id;
    expectError(await call(base, 'GET', `/api/v1/rooms/${roomA}/messages/${inB}`, { token: alice.token }), 404, 'message_not_found');
    expectError(await call(base, 'GET', `/api/v1/rooms/${roomA}/messages/${newId()}`, { token: alice.token }), 404, 'message_not_found');
    expectError(
      await call(base, 'GET', `/api/v1/rooms/${roomA}/messages/xyz`, { token: alice.token }),
      400,
      'validation_failed',
      'path.messageId',
    );
  });

  test('text of 4000 characters is accepted, 4001 and empty are refused and not stored', async () => {
    const alice = await tenant.account();
    const roomId = await newRoom(alice);
    const max = await send(alice, roomId, { text: 'a'.repeat(4000) });
    expectOk(max, 201);
    expect(max.body.data.text).toHaveLength(4000);
    // Characters, not bytes: 4000 multi-byte characters are fine as well.
    expectOk(await send(alice, roomId, { text: 'é'.repeat(4000) }), 201);
    expectError(await send(alice, roomId, { text: 'a'.repeat(4001) }), 400, 'validation_failed', 'body.text');
    expectError(await send(alice, roomId, { text: '' }), 400, 'validation_failed', 'body.text');
    expectError(await send(alice, roomId, {}), 400, 'validation_failed', 'body.text');
    expect(await messagesIn(roomId)).toBe(2);
  });

  test('a clientMessageId outside its pattern is refused', async () => {
    const alice = await tenant.account();
    const roomId = await newRoom(alice);
    for (const clientMessageId of ['has space', '', 'x'.repeat(65)]) {
      expectError(await send(alice, roomId, { text: 'x', clientMessageId }), 400, 'validation_failed', 'body.clientMessageId');
    }
    expect(await messagesIn(roomId)).toBe(0);
  });
});

describe('idempotent sends', () => {
  test('a repeat with the same clientMessageId returns the first message and stores nothing new', async () => {
    const alice = await tenant.account();
    const roomId = await newRoom(alice);
    const first = await send(alice, roomId, { text: 'once', clientMessageId: 'cm-1' });
    expectOk(first, 201);
    const repeat = await send(alice, roomId, { text: 'once (retry)', clientMessageId: 'cm-1' });
    expect(repeat.status).toBe(201);
    expect(repeat.body.data).toEqual(first.body.data);
    expect(repeat.headers.get('location')).toBe(first.headers.get('location'));
    expect(await messagesIn(roomId)).toBe(1);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'message.created' and payload->>'roomId' = $1", [roomId]),
    ).toBe(1);
    const page = await list(alice, roomId);
    expect(page.body.data.map((m: Msg) => m.text)).toEqual(['once']);
  });

  test('a repeated send does not touch the room (lastActivityAt stays at the first message)', async () => {
    const alice = await tenant.account();
    const roomId = await newRoom(alice);
    const first = await send(alice, roomId, { text: 'once', clientMessageId: 'cm-bump' });
    const seq = await lastSeq(roomId);
    await new Promise((r) => setTimeout(r, 5));
    await send(alice, roomId, { text: 'once', clientMessageId: 'cm-bump' });
    expect(await lastSeq(roomId)).toBe(seq);
    const room = await call(base, 'GET', `/api/v1/rooms/${roomId}`, { token: alice.token });
    expect(room.body.data.lastActivityAt).toBe(first.body.data.createdAt);
  });

  test('the clientMessageId is scoped to sender and room', async () => {
    const [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
    const roomId = await newRoom(alice, [bob.id]);
    const other = await newRoom(alice);
    const a = await send(alice, roomId, { text: 'a', clientMessageId: 'same' });
    const b = await send(bob, roomId, { text: 'b', clientMessageId: 'same' });
    const c = await send(alice, other, { text: 'c', clientMessageId: 'same' });
    expect(new Set([a.body.data.id, b.body.data.id, c.body.data.id]).size).toBe(3);
  });

  test('concurrent repeats create exactly one message', async () => {
    const alice = await tenant.account();
    const roomId = await newRoom(alice);
    const results = await Promise.all(Array.from({ length: 10 }, () => send(alice, roomId, { text: 'race', clientMessageId: 'cm-race' })));
    for (const r of results) expect(r.status).toBe(201);
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
    expect(await messagesIn(roomId)).toBe(1);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'message.created' and payload->>'roomId' = $1", [roomId]),
    ).toBe(1);
  });
});

describe('scroll', () => {
  let alice: TestAccount;
  let roomId: string;
  const sent: string[] = []; // ids in send order

  beforeAll(async () => {
    alice = await tenant.account();
    roomId = await newRoom(alice);
    for (let i = 0; i < 120; i++) {
      const res = await send(alice, roomId, { text: `m${i}` });
      expect(res.status).toBe(201);
      sent.push(res.body.data.id);
    }
  });

  const walk = async (start: string, direction: 'before' | 'after', limit: number) => {
    const pages: string[][] = [];
    let query = start;
    for (;;) {
      const res = await list(alice, roomId, query);
      expectOk(res);
      const ids = res.body.data.map((m: Msg) => m.id);
      // Every page is in chronological order.
      const times = res.body.data.map((m: Msg) => Date.parse(m.createdAt));
      expect([...times].sort((x, y) => x - y)).toEqual(times);
      pages.push(ids);
      if (!res.body.meta.hasMore) {
        expect(res.body.meta.nextCursor).toBeNull();
        return pages;
      }
      expect(ids).toHaveLength(limit);
      query = `?limit=${limit}&${direction}=${encodeURIComponent(res.body.meta.nextCursor)}`;
      if (pages.length > 200) throw new Error('scroll does not end');
    }
  };

  test('no cursor gives the newest 50 in chronological order', async () => {
    const res = await list(alice, roomId);
    expectOk(res);
    expect(res.body.data.map((m: Msg) => m.id)).toEqual(sent.slice(70));
    expect(res.body.data[0].text).toBe('m70');
    expect(res.body.meta.hasMore).toBe(true);
    expect(typeof res.body.meta.nextCursor).toBe('string');
  });

  test('before walks back from the newest page, visiting each message exactly once', async () => {
    const pages = await walk('', 'before', 50);
    expect(pages.map((p) => p.length)).toEqual([50, 50, 20]);
    // Pages go back in time; within each the order is chronological.
    expect(pages.reverse().flat()).toEqual(sent);
  });

  test.each([[7], [1], [100]])('before with limit=%i visits each message exactly once', async (limit) => {
    const pages = await walk(`?limit=${limit}`, 'before', limit);
    expect(pages.reverse().flat()).toEqual(sent);
  });

  test.each([[50], [7], [100]])('after from the start with limit=%i visits each message exactly once, forward', async (limit) => {
    const pages = await walk(`?limit=${limit}&after=${encodeCursor({ s: 0 }, historyList(roomId, undefined))}`, 'after', limit);
    expect(pages.flat()).toEqual(sent);
    expect(pages.length).toBe(Math.ceil(120 / limit));
  });

  test('the cursors of two directions meet: after the cursor of a backward page continues forward from there', async () => {
    const newest = await list(alice, roomId, '?limit=30');
    const back = newest.body.meta.nextCursor; // before m90
    const older = await list(alice, roomId, `?limit=30&before=${back}`);
    expect(older.body.data.map((m: Msg) => m.id)).toEqual(sent.slice(60, 90));
    const forward = await list(alice, roomId, `?limit=30&after=${encodeCursor({ s: 60 }, historyList(roomId, undefined))}`);
    expect(forward.body.data.map((m: Msg) => m.id)).toEqual(sent.slice(60, 90));
  });

  test('a forward scroll at the end is an empty last page', async () => {
    const res = await list(alice, roomId, `?after=${encodeCursor({ s: 10_000 }, historyList(roomId, undefined))}`);
    expectOk(res);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toMatchObject({ hasMore: false, nextCursor: null });
  });

  test('an empty room has an empty last page', async () => {
    const empty = await newRoom(alice);
    const res = await list(alice, empty);
    expectOk(res);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toMatchObject({ hasMore: false, nextCursor: null });
  });

  test('exactly limit messages left is hasMore false', async () => {
    const res = await list(alice, roomId, `?limit=20&before=${encodeCursor({ s: 21 }, historyList(roomId, undefined))}`);
    expect(res.body.data.map((m: Msg) => m.id)).toEqual(sent.slice(0, 20));
    expect(res.body.meta).toMatchObject({ hasMore: false, nextCursor: null });
  });

  test('messages sent during a forward scroll are picked up, none twice', async () => {
    const bob = await tenant.account();
    const room = await newRoom(bob);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await send(bob, room, { text: `x${i}` })).body.data.id);
    const seen: string[] = [];
    const first = await call(
      base,
      'GET',
      `/api/v1/rooms/${room}/messages?limit=3&after=${encodeCursor({ s: 0 }, historyList(room, undefined))}`,
      { token: bob.token },
    );
    seen.push(...first.body.data.map((m: Msg) => m.id));
    for (let i = 5; i < 8; i++) ids.push((await send(bob, room, { text: `x${i}` })).body.data.id);
    let cursor = first.body.meta.nextCursor;
    while (cursor) {
      const page = await call(base, 'GET', `/api/v1/rooms/${room}/messages?limit=3&after=${cursor}`, { token: bob.token });
      seen.push(...page.body.data.map((m: Msg) => m.id));
      cursor = page.body.meta.nextCursor;
    }
    expect(seen).toEqual(ids);
  });
});
