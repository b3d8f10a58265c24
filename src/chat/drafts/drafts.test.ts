// Drafts over the real listener: per user and room, null when none, overwrite, empty text deletes, idempotent
// delete, membership gate, events to the caller only, and the draft ending with the membership.
import { newId } from '../../platform/ids.js';
import { chatFixtures } from '../../../test/helpers/chat-fixtures.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { startTestPlatform, type TestAccount, type TestPlatform } from '../../../test/support/platform.js';

let platform: TestPlatform;
let fx: ReturnType<typeof chatFixtures>;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] });
  fx = chatFixtures(platform, await platform.tenant());
});
afterAll(async () => {
  await platform.stop();
});

const path = (roomId: string) => `/me/rooms/${roomId}/draft`;
const drafts = (roomId: string) => count(platform.db, 'select count(*) as n from drafts where room_id = $1', [roomId]);
const draftEvents = (who: TestAccount) =>
  count(platform.db, "select count(*) as n from outbox where topic like 'draft.%' and payload->>'accountId' = $1", [who.id]);

describe('drafts', () => {
  test('no draft reads as text null; PUT saves and overwrites; each user has their own', async () => {
    const c = await fx.cast();
    const none = await fx.api(c.member, 'GET', path(c.roomId));
    expectOk(none);
    expect(none.body.data).toEqual({ roomId: c.roomId, text: null, updatedAt: null });

    const first = await fx.api(c.member, 'PUT', path(c.roomId), { text: 'half a thought' });
    expectOk(first);
    expect(first.body.data).toMatchObject({ roomId: c.roomId, text: 'half a thought' });
    expect(typeof first.body.data.updatedAt).toBe('string');
    const second = await fx.api(c.member, 'PUT', path(c.roomId), { text: 'the whole thought' });
    expectOk(second);
    expect(second.body.data.text).toBe('the whole thought');
    expect((await fx.api(c.member, 'GET', path(c.roomId))).body.data.text).toBe('the whole thought');
    // The owner of the room sees its own (none), not the member's.
    expect((await fx.api(c.owner, 'GET', path(c.roomId))).body.data.text).toBeNull();
    expect(await drafts(c.roomId)).toBe(1);

    const { rows } = await platform.db.query(
      "select payload from outbox where topic = 'draft.saved' and payload->>'accountId' = $1 order by id",
      [c.member.id],
    );
    expect(rows.map((r) => r.payload)).toEqual([
      {
        audience: { kind: 'accounts', accountIds: [c.member.id] },
        roomId: c.roomId,
        accountId: c.member.id,
        text: 'half a thought',
        updatedAt: first.body.data.updatedAt,
      },
      {
        audience: { kind: 'accounts', accountIds: [c.member.id] },
        roomId: c.roomId,
        accountId: c.member.id,
        text: 'the whole thought',
        updatedAt: second.body.data.updatedAt,
      },
    ]);
  });

  test('saving the same text again changes nothing and writes no event', async () => {
    const c = await fx.cast();
    const first = await fx.api(c.member, 'PUT', path(c.roomId), { text: 'same' });
    expectOk(first);
    const again = await fx.api(c.member, 'PUT', path(c.roomId), { text: 'same' });
    expectOk(again);
    expect(again.body.data).toEqual(first.body.data);
    expect(await draftEvents(c.member)).toBe(1);
  });

  test('empty (or only white space) text deletes the draft', async () => {
    const c = await fx.cast();
    expectOk(await fx.api(c.member, 'PUT', path(c.roomId), { text: 'soon gone' }));
    const cleared = await fx.api(c.member, 'PUT', path(c.roomId), { text: '' });
    expectOk(cleared);
    expect(cleared.body.data).toEqual({ roomId: c.roomId, text: null, updatedAt: null });
    expect(await drafts(c.roomId)).toBe(0);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'draft.deleted' and payload->>'accountId' = $1", [
        c.member.id,
      ]),
    ).toBe(1);
    expectOk(await fx.api(c.member, 'PUT', path(c.roomId), { text: 'back' }));
    expectOk(await fx.api(c.member, 'PUT', path(c.roomId), { text: ' \n\t ' }));
    expect(await drafts(c.roomId)).toBe(0);
  });

  test('DELETE is idempotent: the same answer with or without a draft, one event', async () => {
    const c = await fx.cast();
    expectOk(await fx.api(c.member, 'PUT', path(c.roomId), { text: 'x' }));
    const gone = await fx.api(c.member, 'DELETE', path(c.roomId));
    expectOk(gone);
    expect(gone.body.data).toEqual({ roomId: c.roomId, status: 'deleted' });
    const again = await fx.api(c.member, 'DELETE', path(c.roomId));
    expectOk(again);
    expect(again.body.data).toEqual(gone.body.data);
    expect(await drafts(c.roomId)).toBe(0);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'draft.deleted' and payload->>'accountId' = $1", [
        c.member.id,
      ]),
    ).toBe(1);
  });

  test('a room the caller is not a member of (or no room) is 404 room_not_found, nothing stored', async () => {
    const c = await fx.cast();
    expectError(await fx.api(c.outsider, 'GET', path(c.roomId)), 404, 'room_not_found');
    expectError(await fx.api(c.outsider, 'PUT', path(c.roomId), { text: 'sneaky' }), 404, 'room_not_found');
    expectError(await fx.api(c.outsider, 'DELETE', path(c.roomId)), 404, 'room_not_found');
    expectError(await fx.api(c.member, 'PUT', path(newId()), { text: 'nowhere' }), 404, 'room_not_found');
    expect(await drafts(c.roomId)).toBe(0);
    expect(await draftEvents(c.outsider)).toBe(0);
  });

  test('bad input is 400 and changes nothing', async () => {
    const c = await fx.cast();
    expectOk(await fx.api(c.member, 'PUT', path(c.roomId), { text: 'kept' }));
    expectError(await fx.api(c.member, 'PUT', path(c.roomId), {}), 400, 'validation_failed', 'body.text');
    expectError(await fx.api(c.member, 'PUT', path(c.roomId), { text: 'x'.repeat(4001) }), 400, 'validation_failed', 'body.text');
    expectError(await fx.api(c.member, 'PUT', path(c.roomId), { text: null }), 400, 'validation_failed', 'body.text');
    expectError(await fx.api(c.member, 'PUT', path(c.roomId), { text: 'a\u0000b' }), 400, 'validation_failed', 'body.text');
    expectError(await fx.api(c.member, 'PUT', path(c.roomId), { text: 'ok', extra: 1 }), 400, 'validation_failed');
    expectError(await fx.api(c.member, 'GET', '/me/rooms/not-a-uuid/draft'), 400, 'validation_failed', 'path.roomId');
    expect((await fx.api(c.member, 'GET', path(c.roomId))).body.data.text).toBe('kept');
    expect(await draftEvents(c.member)).toBe(1);
  });

  test('leaving the room ends the draft; so does deleting the room', async () => {
    const c = await fx.cast();
    expectOk(await fx.api(c.member, 'PUT', path(c.roomId), { text: 'mine' }));
    expectOk(await fx.api(c.owner, 'PUT', path(c.roomId), { text: 'the owner' }));
    expectOk(await fx.api(c.member, 'POST', `/rooms/${c.roomId}/leave`));
    expect(await count(platform.db, 'select count(*) as n from drafts where account_id = $1', [c.member.id])).toBe(0);
    expect(await drafts(c.roomId)).toBe(1);
    expectOk(await fx.api(c.owner, 'DELETE', `/rooms/${c.roomId}`));
    expect(await drafts(c.roomId)).toBe(0);
    expectError(await fx.api(c.owner, 'GET', path(c.roomId)), 404, 'room_not_found');
  });

  test('any statement deleting member rows (as the rule channel sync does) ends drafts, room labels and saved cards of those rooms only', async () => {
    const c = await fx.cast();
    const other = await fx.room(c.owner, [c.member]);
    const m = await fx.send(c.owner, c.roomId, 'saved');
    const k = await fx.send(c.owner, other, 'kept');
    const label = (await fx.api(c.member, 'POST', '/me/labels', { name: 'L', color: '#000000' })).body.data;
    for (const roomId of [c.roomId, other]) {
      expectOk(await fx.api(c.member, 'PUT', path(roomId), { text: 'draft' }));
      expectOk(await fx.api(c.member, 'PUT', `/me/rooms/${roomId}/labels`, { labelIds: [label.id] }));
    }
    expectOk(await fx.api(c.member, 'POST', '/me/saved', { roomId: c.roomId, messageId: m.id }));
    expectOk(await fx.api(c.member, 'POST', '/me/saved', { roomId: other, messageId: k.id }));
    await platform.db.query('delete from room_members where room_id = any($1::uuid[]) and account_id = any($2::uuid[])', [
      [c.roomId],
      [c.member.id, c.admin.id],
    ]);
    const left = async (table: string) =>
      (await platform.db.query(`select room_id from ${table} where account_id = $1 order by room_id`, [c.member.id])).rows.map(
        (r) => r.room_id,
      );
    expect(await left('drafts')).toEqual([other]);
    expect(await left('room_labels')).toEqual([other]);
    expect(await left('saved_messages')).toEqual([other]);
    expect((await fx.api(c.member, 'GET', '/me/labels')).body.data[0].roomCount).toBe(1);
  });
});
