// The snap-to-top banner over the real listener: one per room, owner/admin, events, idempotent repeats.
import { newId } from '../../platform/ids.js';
import { chatFixtures } from '../../../test/helpers/chat-fixtures.js';
import { expectError, expectOk } from '../../../test/helpers/expect.js';
import { startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';

let platform: TestPlatform;
let fx: ReturnType<typeof chatFixtures>;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] });
  fx = chatFixtures(platform, await platform.tenant());
});
afterAll(async () => {
  await platform.stop();
});

const snapOf = async (roomId: string) =>
  (await platform.db.query('select snap_message_id, snapped_by from rooms where id = $1', [roomId])).rows[0] as {
    snap_message_id: string | null;
    snapped_by: string | null;
  };
const snapEvents = (roomId: string, topic: string) => fx.events(topic, { roomId });

describe('snap-to-top', () => {
  test('no banner: 404 snap_not_found', async () => {
    const c = await fx.cast();
    expectError(await fx.api(c.member, 'GET', `/rooms/${c.roomId}/snap`), 404, 'snap_not_found');
  });

  test('an owner or admin sets it; every member reads it; a new one replaces the old with snap.set', async () => {
    const c = await fx.cast();
    const [a, b] = [await fx.send(c.member, c.roomId, 'first'), await fx.send(c.member, c.roomId, 'second')];
    const set = await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages/${a.id}/snap`);
    expectOk(set);
    expect(set.body.data).toEqual({ roomId: c.roomId, messageId: a.id, snappedAt: expect.any(String), snappedBy: c.owner.id });
    const got = await fx.api(c.member, 'GET', `/rooms/${c.roomId}/snap`);
    expectOk(got);
    expect(got.body.data).toMatchObject({ id: a.id, text: 'first', hiddenForMe: false });
    expectOk(await fx.api(c.admin, 'POST', `/rooms/${c.roomId}/messages/${b.id}/snap`));
    expect((await fx.api(c.member, 'GET', `/rooms/${c.roomId}/snap`)).body.data.id).toBe(b.id);
    expect(await snapOf(c.roomId)).toEqual({ snap_message_id: b.id, snapped_by: c.admin.id });
    const events = await fx.payloads('snap.set', b.id);
    expect(events).toEqual([
      {
        audience: { kind: 'room', roomId: c.roomId },
        roomId: c.roomId,
        messageId: b.id,
        snappedBy: c.admin.id,
        snappedAt: expect.any(String),
        replacedMessageId: a.id,
      },
    ]);
  });

  test('snapping the banner message again answers the banner as it is and emits nothing', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.member, c.roomId);
    const first = await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages/${m.id}/snap`);
    const again = await fx.api(c.admin, 'POST', `/rooms/${c.roomId}/messages/${m.id}/snap`);
    expectOk(again);
    expect(again.body.data).toEqual(first.body.data);
    expect(await snapEvents(c.roomId, 'snap.set')).toBe(1);
  });

  test('a regular member may not set or remove it: 403 forbidden, nothing changes', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.member, c.roomId);
    expectError(await fx.api(c.member, 'POST', `/rooms/${c.roomId}/messages/${m.id}/snap`), 403, 'forbidden');
    expect((await snapOf(c.roomId)).snap_message_id).toBeNull();
    expectOk(await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages/${m.id}/snap`));
    expectError(await fx.api(c.member, 'DELETE', `/rooms/${c.roomId}/snap`), 403, 'forbidden');
    expect((await snapOf(c.roomId)).snap_message_id).toBe(m.id);
  });

  test('remove: the banner goes with snap.removed; removing again (or when there is none) changes nothing', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.member, c.roomId);
    await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages/${m.id}/snap`);
    for (let i = 0; i < 2; i++) {
      const res = await fx.api(c.admin, 'DELETE', `/rooms/${c.roomId}/snap`);
      expectOk(res);
      expect(res.body.data).toEqual({ roomId: c.roomId, state: 'NONE' });
    }
    expectError(await fx.api(c.member, 'GET', `/rooms/${c.roomId}/snap`), 404, 'snap_not_found');
    expect(await fx.payloads('snap.removed', m.id)).toEqual([
      { audience: { kind: 'room', roomId: c.roomId }, roomId: c.roomId, messageId: m.id, removedBy: c.admin.id },
    ]);
  });

  test('a recalled message cannot be snapped: 409 message_recalled', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.member, c.roomId);
    await fx.api(c.member, 'POST', `/rooms/${c.roomId}/messages/${m.id}/recall`);
    expectError(await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages/${m.id}/snap`), 409, 'message_recalled');
    expect((await snapOf(c.roomId)).snap_message_id).toBeNull();
  });

  test('a banner the caller hid is still served, marked hiddenForMe', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.owner, c.roomId);
    await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages/${m.id}/snap`);
    await fx.api(c.member, 'DELETE', `/rooms/${c.roomId}/messages/${m.id}`);
    expect((await fx.api(c.member, 'GET', `/rooms/${c.roomId}/snap`)).body.data).toMatchObject({ id: m.id, hiddenForMe: true });
  });

  test('non-member 404 room_not_found on all three; unknown message 404 message_not_found; nothing changes', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.member, c.roomId);
    expectError(await fx.api(c.outsider, 'POST', `/rooms/${c.roomId}/messages/${m.id}/snap`), 404, 'room_not_found');
    expectError(await fx.api(c.outsider, 'GET', `/rooms/${c.roomId}/snap`), 404, 'room_not_found');
    expectError(await fx.api(c.outsider, 'DELETE', `/rooms/${c.roomId}/snap`), 404, 'room_not_found');
    expectError(await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages/${newId()}/snap`), 404, 'message_not_found');
    expectError(await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages/oops/snap`), 400, 'validation_failed', 'path.messageId');
    expect((await snapOf(c.roomId)).snap_message_id).toBeNull();
    expect(await snapEvents(c.roomId, 'snap.set')).toBe(0);
  });
});
