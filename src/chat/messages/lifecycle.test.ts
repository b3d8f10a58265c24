// Edit (sender only, inside the configured window), hide and restore (per caller), recall (sender or owner/admin)
// over the real listener, with a clock the tests move.
import { ConfigError, loadConfig } from '../../platform/config/index.js';
import { ManualClock } from '../../platform/clock.js';
import { encodeCursor } from '../../platform/http/cursor.js';
import { historyList } from './service.js';
import { newId } from '../../platform/ids.js';
import { chatFixtures } from '../../../test/helpers/chat-fixtures.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { startTestPlatform, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';

let platform: TestPlatform;
let tenant: TestTenant;
let fx: ReturnType<typeof chatFixtures>;
const clock = new ManualClock();

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] }, clock);
  tenant = await platform.tenant();
  fx = chatFixtures(platform, tenant);
});
afterAll(async () => {
  await platform.stop();
});

const row = async (id: string) =>
  (await platform.db.query('select text, edited_at, recalled_at from messages where id = $1', [id])).rows[0] as {
    text: string | null;
    edited_at: Date | null;
    recalled_at: Date | null;
  };

describe('the edit window setting', () => {
  test('MESSAGE_EDIT_WINDOW_SECONDS defaults to 900 and is bounded to 0..2592000', () => {
    expect(loadConfig({}).messageEditWindowSeconds).toBe(900);
    expect(loadConfig({ MESSAGE_EDIT_WINDOW_SECONDS: '0' }).messageEditWindowSeconds).toBe(0);
    expect(loadConfig({ MESSAGE_EDIT_WINDOW_SECONDS: '2592000' }).messageEditWindowSeconds).toBe(2_592_000);
    for (const bad of ['2592001', '-1', '15m', '1.5']) {
      expect(() => loadConfig({ MESSAGE_EDIT_WINDOW_SECONDS: bad })).toThrow(ConfigError);
    }
  });
});

describe('edit', () => {
  test('the sender edits inside the window: new text, editedAt, one message.edited event', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.member, c.roomId, 'first');
    clock.advance(60_000);
    const res = await fx.api(c.member, 'PATCH', `/rooms/${c.roomId}/messages/${m.id}`, { text: 'second' });
    expectOk(res);
    expect(res.body.data).toMatchObject({
      id: m.id,
      text: 'second',
      editedAt: clock.now().toISOString(),
      recalled: false,
      createdAt: m.createdAt,
    });
    const got = await fx.api(c.owner, 'GET', `/rooms/${c.roomId}/messages/${m.id}`);
    expect(got.body.data.text).toBe('second');
    const [event] = await fx.payloads('message.edited', m.id);
    expect(event).toMatchObject({ audience: { kind: 'room', roomId: c.roomId }, roomId: c.roomId, messageId: m.id, senderId: c.member.id });
    expect(await fx.events('message.edited', { messageId: m.id })).toBe(1);
  });

  test('anyone but the sender gets 403 forbidden, the owner too, and nothing changes', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.member, c.roomId, 'mine');
    for (const who of [c.owner, c.admin]) {
      expectError(await fx.api(who, 'PATCH', `/rooms/${c.roomId}/messages/${m.id}`, { text: 'theirs' }), 403, 'forbidden');
    }
    expect(await row(m.id)).toMatchObject({ text: 'mine', edited_at: null });
    expect(await fx.events('message.edited', { messageId: m.id })).toBe(0);
  });

  test('a non-member gets 404 room_not_found; an unknown message or one of another room 404 message_not_found', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.member, c.roomId, 'x');
    expectError(await fx.api(c.outsider, 'PATCH', `/rooms/${c.roomId}/messages/${m.id}`, { text: 'y' }), 404, 'room_not_found');
    expectError(await fx.api(c.member, 'PATCH', `/rooms/${c.roomId}/messages/${newId()}`, { text: 'y' }), 404, 'message_not_found');
    const other = await fx.room(c.member);
    expectError(await fx.api(c.member, 'PATCH', `/rooms/${other}/messages/${m.id}`, { text: 'y' }), 404, 'message_not_found');
    expect((await row(m.id)).text).toBe('x');
  });

  test('bad bodies are 400 validation_failed and change nothing', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.member, c.roomId, 'keep');
    const path = `/rooms/${c.roomId}/messages/${m.id}`;
    expectError(await fx.api(c.member, 'PATCH', path, { text: '' }), 400, 'validation_failed', 'body.text');
    expectError(await fx.api(c.member, 'PATCH', path, { text: 'a'.repeat(4001) }), 400, 'validation_failed', 'body.text');
    expectError(await fx.api(c.member, 'PATCH', path, {}), 400, 'validation_failed', 'body.text');
    expectError(await fx.api(c.member, 'PATCH', path, { text: 'ok', extra: 1 }), 400, 'validation_failed', 'body.extra');
    expectError(await fx.api(c.member, 'PATCH', path, { text: 5 }), 400, 'validation_failed', 'body.text');
    expectError(
      await fx.api(c.member, 'PATCH', `/rooms/${c.roomId}/messages/not-a-uuid`, { text: 'x' }),
      400,
      'validation_failed',
      'path.messageId',
    );
    expect(await row(m.id)).toMatchObject({ text: 'keep', edited_at: null });
  });

  test('the window: editable until 900 s after sending, then 409 edit_window_expired and nothing changes', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.member, c.roomId, 'v1');
    const path = `/rooms/${c.roomId}/messages/${m.id}`;
    clock.advance(899_999);
    expectOk(await fx.api(c.member, 'PATCH', path, { text: 'v2' }));
    clock.advance(1);
    expectError(await fx.api(c.member, 'PATCH', path, { text: 'v3' }), 409, 'edit_window_expired');
    clock.advance(3_600_000 - 900_000 - 60_000);
    expectError(await fx.api(c.member, 'PATCH', path, { text: 'v3' }), 409, 'edit_window_expired');
    expect((await row(m.id)).text).toBe('v2');
    expect(await fx.events('message.edited', { messageId: m.id })).toBe(1);
    // Back to the present for the other tests: tokens are checked against this clock.
    clock.set(new Date());
  });

  test('a recalled message cannot be edited: 409 message_recalled', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.member, c.roomId, 'gone');
    expectOk(await fx.api(c.member, 'POST', `/rooms/${c.roomId}/messages/${m.id}/recall`));
    expectError(await fx.api(c.member, 'PATCH', `/rooms/${c.roomId}/messages/${m.id}`, { text: 'back' }), 409, 'message_recalled');
    expect(await row(m.id)).toMatchObject({ text: null, edited_at: null });
  });

  test('MESSAGE_EDIT_WINDOW_SECONDS=0 turns editing off', async () => {
    const off = await startTestPlatform({ services: ['chat'], messageEditWindowSeconds: 0 });
    try {
      const t = await off.tenant();
      const f = chatFixtures(off, t);
      const a = await t.account();
      const roomId = await f.room(a);
      const m = await f.send(a, roomId, 'fixed');
      expectError(await f.api(a, 'PATCH', `/rooms/${roomId}/messages/${m.id}`, { text: 'changed' }), 409, 'edit_window_expired');
    } finally {
      await off.stop();
    }
  });
});

describe('hide and restore', () => {
  test("hide is for the caller only: hiddenForMe, left out of the caller's scroll, one event to the caller", async () => {
    const c = await fx.cast();
    const [m1, m2] = [await fx.send(c.owner, c.roomId, 'one'), await fx.send(c.owner, c.roomId, 'two')];
    const res = await fx.api(c.member, 'DELETE', `/rooms/${c.roomId}/messages/${m1.id}`);
    expectOk(res);
    expect(res.body.data).toEqual({ roomId: c.roomId, messageId: m1.id, state: 'HIDDEN' });
    expect((await fx.api(c.member, 'GET', `/rooms/${c.roomId}/messages/${m1.id}`)).body.data.hiddenForMe).toBe(true);
    expect((await fx.api(c.owner, 'GET', `/rooms/${c.roomId}/messages/${m1.id}`)).body.data.hiddenForMe).toBe(false);
    expect((await fx.api(c.member, 'GET', `/rooms/${c.roomId}/messages`)).body.data.map((m: { id: string }) => m.id)).toEqual([m2.id]);
    expect((await fx.api(c.owner, 'GET', `/rooms/${c.roomId}/messages`)).body.data.map((m: { id: string }) => m.id)).toEqual([
      m1.id,
      m2.id,
    ]);
    const events = await fx.payloads('message.hidden', m1.id);
    expect(events).toEqual([
      { audience: { kind: 'accounts', accountIds: [c.member.id] }, roomId: c.roomId, messageId: m1.id, accountId: c.member.id },
    ]);
  });

  test('hiding twice answers the same and stores and emits nothing more', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.owner, c.roomId);
    for (let i = 0; i < 2; i++) {
      const res = await fx.api(c.member, 'DELETE', `/rooms/${c.roomId}/messages/${m.id}`);
      expectOk(res);
      expect(res.body.data.state).toBe('HIDDEN');
    }
    expect(await count(platform.db, 'select count(*) as n from message_hides where message_id = $1', [m.id])).toBe(1);
    expect(await fx.events('message.hidden', { messageId: m.id })).toBe(1);
  });

  test('restore shows the message again; restoring twice (or a message never hidden) changes nothing', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.owner, c.roomId);
    await fx.api(c.member, 'DELETE', `/rooms/${c.roomId}/messages/${m.id}`);
    for (let i = 0; i < 2; i++) {
      const res = await fx.api(c.member, 'POST', `/rooms/${c.roomId}/messages/${m.id}/restore`);
      expectOk(res);
      expect(res.body.data).toEqual({ roomId: c.roomId, messageId: m.id, state: 'VISIBLE' });
    }
    expectOk(await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages/${m.id}/restore`));
    expect((await fx.api(c.member, 'GET', `/rooms/${c.roomId}/messages/${m.id}`)).body.data.hiddenForMe).toBe(false);
    expect((await fx.api(c.member, 'GET', `/rooms/${c.roomId}/messages`)).body.data).toHaveLength(1);
    const events = await fx.payloads('message.restored', m.id);
    expect(events).toEqual([
      { audience: { kind: 'accounts', accountIds: [c.member.id] }, roomId: c.roomId, messageId: m.id, accountId: c.member.id },
    ]);
  });

  test('non-member 404 room_not_found, unknown message 404 message_not_found, nothing stored', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.owner, c.roomId);
    expectError(await fx.api(c.outsider, 'DELETE', `/rooms/${c.roomId}/messages/${m.id}`), 404, 'room_not_found');
    expectError(await fx.api(c.outsider, 'POST', `/rooms/${c.roomId}/messages/${m.id}/restore`), 404, 'room_not_found');
    expectError(await fx.api(c.member, 'DELETE', `/rooms/${c.roomId}/messages/${newId()}`), 404, 'message_not_found');
    expectError(await fx.api(c.member, 'POST', `/rooms/${c.roomId}/messages/${newId()}/restore`), 404, 'message_not_found');
    expect(await count(platform.db, 'select count(*) as n from message_hides where room_id = $1', [c.roomId])).toBe(0);
  });
});

describe('scroll with hidden messages', () => {
  test('hasMore and nextCursor come from the raw rows: an all-hidden page is empty yet says hasMore with a cursor', async () => {
    const c = await fx.cast();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await fx.send(c.owner, c.roomId, `m${i}`)).id);
    for (const id of ids.slice(2)) expectOk(await fx.api(c.member, 'DELETE', `/rooms/${c.roomId}/messages/${id}`));

    const newest = await fx.api(c.member, 'GET', `/rooms/${c.roomId}/messages?limit=3`);
    expectOk(newest);
    expect(newest.body.data).toEqual([]);
    expect(newest.body.meta.hasMore).toBe(true);
    expect(typeof newest.body.meta.nextCursor).toBe('string');

    const older = await fx.api(c.member, 'GET', `/rooms/${c.roomId}/messages?limit=3&before=${newest.body.meta.nextCursor}`);
    expect(older.body.data.map((m: { id: string }) => m.id)).toEqual(ids.slice(0, 2));
    expect(older.body.meta).toMatchObject({ hasMore: false, nextCursor: null });

    // The same page for someone who hid nothing: the same meta, all rows.
    const other = await fx.api(c.owner, 'GET', `/rooms/${c.roomId}/messages?limit=3`);
    expect(other.body.data.map((m: { id: string }) => m.id)).toEqual(ids.slice(2));
    expect(other.body.meta.hasMore).toBe(true);
    expect(other.body.meta.nextCursor).toBe(newest.body.meta.nextCursor);
  });

  test("a partly hidden page keeps the raw page's cursor, and a forward scroll too", async () => {
    const c = await fx.cast();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await fx.send(c.owner, c.roomId, `m${i}`)).id);
    await fx.api(c.member, 'DELETE', `/rooms/${c.roomId}/messages/${ids[1]}`);
    const first = await fx.api(
      c.member,
      'GET',
      `/rooms/${c.roomId}/messages?limit=2&after=${encodeCursor({ s: 0 }, historyList(c.roomId, undefined))}`,
    );
    expect(first.body.data.map((m: { id: string }) => m.id)).toEqual([ids[0]]);
    expect(first.body.meta.hasMore).toBe(true);
    const second = await fx.api(c.member, 'GET', `/rooms/${c.roomId}/messages?limit=2&after=${first.body.meta.nextCursor}`);
    expect(second.body.data.map((m: { id: string }) => m.id)).toEqual([ids[2], ids[3]]);
    expect(second.body.meta).toMatchObject({ hasMore: false, nextCursor: null });
  });

  test('a last page whose rows are all hidden is empty with hasMore false', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.owner, c.roomId);
    await fx.api(c.member, 'DELETE', `/rooms/${c.roomId}/messages/${m.id}`);
    const res = await fx.api(c.member, 'GET', `/rooms/${c.roomId}/messages`);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta).toMatchObject({ hasMore: false, nextCursor: null });
  });
});

describe('recall', () => {
  test('the sender recalls: text null for everyone, erased in storage, one message.recalled event; again answers the same', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.member, c.roomId, 'oops');
    const res = await fx.api(c.member, 'POST', `/rooms/${c.roomId}/messages/${m.id}/recall`);
    expectOk(res);
    expect(res.body.data).toMatchObject({ id: m.id, text: null, recalled: true });
    const seen = await fx.api(c.owner, 'GET', `/rooms/${c.roomId}/messages/${m.id}`);
    expect(seen.body.data).toMatchObject({ text: null, recalled: true });
    expect((await fx.api(c.owner, 'GET', `/rooms/${c.roomId}/messages`)).body.data[0]).toMatchObject({
      id: m.id,
      text: null,
      recalled: true,
    });
    expect((await row(m.id)).text).toBeNull();
    const again = await fx.api(c.member, 'POST', `/rooms/${c.roomId}/messages/${m.id}/recall`);
    expectOk(again);
    expect(again.body.data).toEqual(res.body.data);
    const events = await fx.payloads('message.recalled', m.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      audience: { kind: 'room', roomId: c.roomId },
      messageId: m.id,
      senderId: c.member.id,
      recalledBy: c.member.id,
    });
  });

  test("an owner or admin recalls someone else's message; another member gets 403 and nothing changes", async () => {
    const c = await fx.cast();
    const [a, b] = [await fx.send(c.member, c.roomId, 'a'), await fx.send(c.member, c.roomId, 'b')];
    const c2 = await fx.send(c.admin, c.roomId, 'by admin');
    expectError(await fx.api(c.member, 'POST', `/rooms/${c.roomId}/messages/${c2.id}/recall`), 403, 'forbidden');
    expect(await row(c2.id)).toMatchObject({ text: 'by admin', recalled_at: null });
    expect(await fx.events('message.recalled', { messageId: c2.id })).toBe(0);
    expectOk(await fx.api(c.admin, 'POST', `/rooms/${c.roomId}/messages/${a.id}/recall`));
    expectOk(await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages/${b.id}/recall`));
    expect((await row(a.id)).recalled_at).not.toBeNull();
    expect((await row(b.id)).recalled_at).not.toBeNull();
  });

  test('non-member 404 room_not_found, unknown message 404 message_not_found', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.member, c.roomId);
    expectError(await fx.api(c.outsider, 'POST', `/rooms/${c.roomId}/messages/${m.id}/recall`), 404, 'room_not_found');
    expectError(await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages/${newId()}/recall`), 404, 'message_not_found');
    expect((await row(m.id)).recalled_at).toBeNull();
  });

  test('recall removes the reactions, the room pin, personal pins and the banner, with pin.removed and snap.removed', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.member, c.roomId, 'popular');
    const base = `/rooms/${c.roomId}/messages/${m.id}`;
    expectOk(await fx.api(c.owner, 'POST', `${base}/reactions`, { emoji: '👍' }));
    expectOk(await fx.api(c.owner, 'POST', `${base}/pin?scope=ROOM`));
    expectOk(await fx.api(c.member, 'POST', `${base}/pin?scope=PERSONAL`));
    expectOk(await fx.api(c.owner, 'POST', `${base}/snap`));
    expectOk(await fx.api(c.member, 'POST', `${base}/recall`));
    for (const table of ['message_reactions', 'room_pins', 'personal_pins']) {
      expect(await count(platform.db, `select count(*) as n from ${table} where message_id = $1`, [m.id])).toBe(0);
    }
    expect((await platform.db.query('select snap_message_id from rooms where id = $1', [c.roomId])).rows[0].snap_message_id).toBeNull();
    expect((await fx.api(c.member, 'GET', `${base}/reactions`)).body.data).toEqual([]);
    expect((await fx.api(c.member, 'GET', `/rooms/${c.roomId}/pinned`)).body.data).toEqual([]);
    expectError(await fx.api(c.member, 'GET', `/rooms/${c.roomId}/snap`), 404, 'snap_not_found');
    expect(await fx.events('pin.removed', { messageId: m.id })).toBe(1);
    expect(await fx.events('snap.removed', { messageId: m.id })).toBe(1);
  });

  test('a hidden message can be recalled and stays hidden for whoever hid it', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.member, c.roomId);
    await fx.api(c.owner, 'DELETE', `/rooms/${c.roomId}/messages/${m.id}`);
    const res = await fx.api(c.member, 'POST', `/rooms/${c.roomId}/messages/${m.id}/recall`);
    expect(res.body.data.hiddenForMe).toBe(false);
    expect((await fx.api(c.owner, 'GET', `/rooms/${c.roomId}/messages/${m.id}`)).body.data).toMatchObject({
      hiddenForMe: true,
      recalled: true,
    });
  });
});
