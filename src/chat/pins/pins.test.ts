// Room and personal pins over the real listener: roles, events, the merged pinned list, idempotent repeats.
import { newId } from '../../platform/ids.js';
import { chatFixtures, type RoomCast } from '../../../test/helpers/chat-fixtures.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { alternate } from '../../../test/helpers/data.js';

let platform: TestPlatform;
let fx: ReturnType<typeof chatFixtures>;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] });
  fx = chatFixtures(platform, await platform.tenant());
});
afterAll(async () => {
  await platform.stop();
});

interface Entry {
  message: { id: string; text: string | null };
  scope: 'ROOM' | 'PERSONAL';
  personal: boolean;
  pinnedAt: string;
  pinnedBy?: string;
}

const roomPins = (roomId: string) => count(platform.db, 'select count(*) as n from room_pins where room_id = $1', [roomId]);
const personalPins = (roomId: string) => count(platform.db, 'select count(*) as n from personal_pins where room_id = $1', [roomId]);
const pinEvents = (roomId: string) =>
  count(platform.db, "select count(*) as n from outbox where topic like 'pin.%' and payload->>'roomId' = $1", [roomId]);
const tick = () => new Promise((r) => setTimeout(r, 3));

async function setup(): Promise<RoomCast & { messageId: string; path: string }> {
  const c = await fx.cast();
  const m = await fx.send(c.member, c.roomId, 'pin me');
  return { ...c, messageId: m.id, path: `/rooms/${c.roomId}/messages/${m.id}/pin` };
}

describe('room pins', () => {
  test('an owner pins for the room (the default scope): the entry, one pin.added event; pinning again changes nothing', async () => {
    const c = await setup();
    const res = await fx.api(c.owner, 'POST', c.path);
    expectOk(res);
    expect(res.body.data).toMatchObject({
      scope: 'ROOM',
      personal: false,
      pinnedBy: c.owner.id,
      message: { id: c.messageId, text: 'pin me' },
    });
    const again = await fx.api(c.admin, 'POST', `${c.path}?scope=ROOM`);
    expectOk(again);
    expect(again.body.data).toEqual(res.body.data);
    expect(await roomPins(c.roomId)).toBe(1);
    const events = await fx.payloads('pin.added', c.messageId);
    expect(events).toEqual([
      {
        audience: { kind: 'room', roomId: c.roomId },
        roomId: c.roomId,
        messageId: c.messageId,
        pinnedBy: c.owner.id,
        pinnedAt: res.body.data.pinnedAt,
      },
    ]);
    // Every member sees it.
    const list = await fx.api(c.member, 'GET', `/rooms/${c.roomId}/pinned`);
    expectOk(list);
    expect(list.body.data).toEqual([{ ...res.body.data }]);
  });

  test('a regular member may not pin or unpin for the room: 403 forbidden, nothing stored', async () => {
    const c = await setup();
    expectError(await fx.api(c.member, 'POST', `${c.path}?scope=ROOM`), 403, 'forbidden');
    expect(await roomPins(c.roomId)).toBe(0);
    expectOk(await fx.api(c.admin, 'POST', `${c.path}?scope=ROOM`));
    expectError(await fx.api(c.member, 'DELETE', c.path), 403, 'forbidden');
    expect(await roomPins(c.roomId)).toBe(1);
  });

  test('unpin for the room removes the shared pin with pin.removed; again changes nothing', async () => {
    const c = await setup();
    await fx.api(c.owner, 'POST', c.path);
    for (let i = 0; i < 2; i++) {
      const res = await fx.api(c.admin, 'DELETE', `${c.path}?scope=ROOM`);
      expectOk(res);
      expect(res.body.data).toEqual({ roomId: c.roomId, messageId: c.messageId, scope: 'ROOM', state: 'UNPINNED' });
    }
    expect(await roomPins(c.roomId)).toBe(0);
    expect(await fx.events('pin.removed', { messageId: c.messageId })).toBe(1);
    expect((await fx.api(c.member, 'GET', `/rooms/${c.roomId}/pinned`)).body.data).toEqual([]);
  });
});

describe('personal pins', () => {
  test('any member pins for itself: PERSONAL entry, seen only by the caller, no event', async () => {
    const c = await setup();
    const res = await fx.api(c.member, 'POST', `${c.path}?scope=PERSONAL`);
    expectOk(res);
    expect(res.body.data).toMatchObject({ scope: 'PERSONAL', personal: true, message: { id: c.messageId } });
    expect(res.body.data.pinnedBy).toBeUndefined();
    expectOk(await fx.api(c.member, 'POST', `${c.path}?scope=PERSONAL`));
    expect(await personalPins(c.roomId)).toBe(1);
    expect((await fx.api(c.member, 'GET', `/rooms/${c.roomId}/pinned`)).body.data).toEqual([res.body.data]);
    expect((await fx.api(c.owner, 'GET', `/rooms/${c.roomId}/pinned`)).body.data).toEqual([]);
    expect(await fx.allEvents(c.messageId)).toBe(1); // only its message.created
  });

  test("unpin PERSONAL removes only the caller's own pin, with no event; again changes nothing", async () => {
    const c = await setup();
    await fx.api(c.member, 'POST', `${c.path}?scope=PERSONAL`);
    await fx.api(c.owner, 'POST', `${c.path}?scope=PERSONAL`);
    for (let i = 0; i < 2; i++) {
      const res = await fx.api(c.member, 'DELETE', `${c.path}?scope=PERSONAL`);
      expectOk(res);
      expect(res.body.data.state).toBe('UNPINNED');
    }
    expect(await personalPins(c.roomId)).toBe(1);
    expect((await fx.api(c.owner, 'GET', `/rooms/${c.roomId}/pinned`)).body.data).toHaveLength(1);
    expect(await pinEvents(c.roomId)).toBe(0);
  });
});

describe('the pinned list', () => {
  test('one entry per message: pinned both ways is scope ROOM and personal true, for the personal pinner only', async () => {
    const c = await setup();
    await fx.api(c.member, 'POST', `${c.path}?scope=PERSONAL`);
    await tick();
    const roomPin = await fx.api(c.owner, 'POST', `${c.path}?scope=ROOM`);
    expect(roomPin.body.data).toMatchObject({ scope: 'ROOM', personal: false });
    const mine = await fx.api(c.member, 'GET', `/rooms/${c.roomId}/pinned`);
    expect(mine.body.data).toHaveLength(1);
    expect(mine.body.data[0]).toMatchObject({ scope: 'ROOM', personal: true, pinnedBy: c.owner.id, pinnedAt: roomPin.body.data.pinnedAt });
    expect((await fx.api(c.admin, 'GET', `/rooms/${c.roomId}/pinned`)).body.data[0]).toMatchObject({ scope: 'ROOM', personal: false });
    // The pin answer is the same merged entry.
    expect((await fx.api(c.member, 'POST', `${c.path}?scope=PERSONAL`)).body.data).toEqual(mine.body.data[0]);
    // Removing the room pin leaves the personal one.
    await fx.api(c.owner, 'DELETE', c.path);
    expect((await fx.api(c.member, 'GET', `/rooms/${c.roomId}/pinned`)).body.data[0]).toMatchObject({ scope: 'PERSONAL', personal: true });
  });

  test('newest pin first, room and personal pins interleaved; no pin limit', async () => {
    const c = await fx.cast();
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) ids.push((await fx.send(c.owner, c.roomId, `m${i}`)).id);
    for (const [i, id] of ids.entries()) {
      expectOk(
        await fx.api(
          alternate(i, c.owner, c.member),
          'POST',
          `/rooms/${c.roomId}/messages/${id}/pin?scope=${alternate(i, 'ROOM', 'PERSONAL')}`,
        ),
      );
      await tick();
    }
    const list = await fx.api(c.member, 'GET', `/rooms/${c.roomId}/pinned`);
    expectOk(list);
    const entries: Entry[] = list.body.data;
    expect(entries.map((e) => e.message.id)).toEqual([...ids].reverse());
    expect(entries.map((e) => e.scope)).toEqual(ids.map((_, i) => alternate(i, 'ROOM', 'PERSONAL')).reverse());
    expect(list.body.meta).toMatchObject({ hasMore: false, nextCursor: null });
    expect((await fx.api(c.owner, 'GET', `/rooms/${c.roomId}/pinned`)).body.data).toHaveLength(30);
  });
});

describe('refusals', () => {
  test('a recalled message cannot be pinned in either scope: 409 message_recalled', async () => {
    const c = await setup();
    expectOk(await fx.api(c.member, 'POST', `/rooms/${c.roomId}/messages/${c.messageId}/recall`));
    expectError(await fx.api(c.owner, 'POST', `${c.path}?scope=ROOM`), 409, 'message_recalled');
    expectError(await fx.api(c.member, 'POST', `${c.path}?scope=PERSONAL`), 409, 'message_recalled');
    expect(await roomPins(c.roomId)).toBe(0);
    expect(await personalPins(c.roomId)).toBe(0);
  });

  test('non-member 404 room_not_found; unknown message 404 message_not_found; bad scope 400; nothing stored', async () => {
    const c = await setup();
    expectError(await fx.api(c.outsider, 'POST', `${c.path}?scope=PERSONAL`), 404, 'room_not_found');
    expectError(await fx.api(c.outsider, 'DELETE', `${c.path}?scope=PERSONAL`), 404, 'room_not_found');
    expectError(await fx.api(c.outsider, 'GET', `/rooms/${c.roomId}/pinned`), 404, 'room_not_found');
    const unknown = `/rooms/${c.roomId}/messages/${newId()}/pin`;
    expectError(await fx.api(c.owner, 'POST', unknown), 404, 'message_not_found');
    expectError(await fx.api(c.member, 'POST', `${unknown}?scope=PERSONAL`), 404, 'message_not_found');
    expectError(await fx.api(c.owner, 'DELETE', unknown), 404, 'message_not_found');
    for (const scope of ['room', 'BOTH', '']) {
      expectError(await fx.api(c.owner, 'POST', `${c.path}?scope=${scope}`), 400, 'validation_failed', 'query.scope');
    }
    expect(await roomPins(c.roomId)).toBe(0);
    expect(await personalPins(c.roomId)).toBe(0);
    expect(await pinEvents(c.roomId)).toBe(0);
  });

  test('a message of another room is 404 message_not_found', async () => {
    const c = await setup();
    const other = await fx.room(c.owner);
    expectError(await fx.api(c.owner, 'POST', `/rooms/${other}/messages/${c.messageId}/pin`), 404, 'message_not_found');
    expect(await count(platform.db, 'select count(*) as n from room_pins where message_id = $1', [c.messageId])).toBe(0);
  });
});
