// Reactions over the real listener: summary per emoji, idempotent add, removing one's own, validation, recalled.
import { newId } from '../../platform/ids.js';
import { chatFixtures, type RoomCast } from '../../../test/helpers/chat-fixtures.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
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

const reactionsOf = (messageId: string) =>
  count(platform.db, 'select count(*) as n from message_reactions where message_id = $1', [messageId]);

async function setup(): Promise<RoomCast & { messageId: string; path: string }> {
  const c = await fx.cast();
  const m = await fx.send(c.owner, c.roomId, 'react to me');
  return { ...c, messageId: m.id, path: `/rooms/${c.roomId}/messages/${m.id}/reactions` };
}

describe('reactions', () => {
  test('summary per emoji with count and reactedByMe, in the order each emoji was first used', async () => {
    const c = await setup();
    for (const [who, emoji] of [
      [c.member, '👍'],
      [c.admin, '🎉'],
      [c.owner, '👍'],
    ] as const) {
      const res = await fx.api(who, 'POST', c.path, { emoji });
      expectOk(res);
      expect(res.body.data).toEqual({ roomId: c.roomId, messageId: c.messageId, emoji, state: 'REACTED' });
    }
    const forMember = await fx.api(c.member, 'GET', c.path);
    expectOk(forMember);
    expect(forMember.body.data).toEqual([
      { emoji: '👍', count: 2, reactedByMe: true },
      { emoji: '🎉', count: 1, reactedByMe: false },
    ]);
    expect(forMember.body.meta).toMatchObject({ hasMore: false, nextCursor: null });
    expect((await fx.api(c.admin, 'GET', c.path)).body.data).toEqual([
      { emoji: '👍', count: 2, reactedByMe: false },
      { emoji: '🎉', count: 1, reactedByMe: true },
    ]);
    const events = await fx.payloads('reaction.added', c.messageId);
    expect(events).toHaveLength(3);
    expect(events[0]).toEqual({
      audience: { kind: 'room', roomId: c.roomId },
      roomId: c.roomId,
      messageId: c.messageId,
      emoji: '👍',
      accountId: c.member.id,
    });
  });

  test('adding the same reaction twice answers the same, stores one row and emits one event', async () => {
    const c = await setup();
    for (let i = 0; i < 3; i++) expectOk(await fx.api(c.member, 'POST', c.path, { emoji: '❤️' }));
    expect(await reactionsOf(c.messageId)).toBe(1);
    expect(await fx.events('reaction.added', { messageId: c.messageId })).toBe(1);
    expect((await fx.api(c.member, 'GET', c.path)).body.data).toEqual([{ emoji: '❤️', count: 1, reactedByMe: true }]);
  });

  test("remove takes only the caller's own reaction; removing again changes nothing", async () => {
    const c = await setup();
    await fx.api(c.member, 'POST', c.path, { emoji: '👍' });
    await fx.api(c.owner, 'POST', c.path, { emoji: '👍' });
    for (let i = 0; i < 2; i++) {
      const res = await fx.api(c.member, 'DELETE', `${c.path}/${encodeURIComponent('👍')}`);
      expectOk(res);
      expect(res.body.data).toEqual({ roomId: c.roomId, messageId: c.messageId, emoji: '👍', state: 'NOT_REACTED' });
    }
    expect((await fx.api(c.member, 'GET', c.path)).body.data).toEqual([{ emoji: '👍', count: 1, reactedByMe: false }]);
    expect(await fx.events('reaction.removed', { messageId: c.messageId })).toBe(1);
    // Someone who never reacted removes nothing either.
    expectOk(await fx.api(c.admin, 'DELETE', `${c.path}/${encodeURIComponent('👍')}`));
    expect(await reactionsOf(c.messageId)).toBe(1);
  });

  test('multi-code-point emoji round-trip through the body and the path', async () => {
    const c = await setup();
    const england = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}';
    for (const emoji of ['👍🏽', '👨\u200d👩\u200d👧', '🇯🇵', '❤️', england, ':party:', 'x'.repeat(64)]) {
      expectOk(await fx.api(c.member, 'POST', c.path, { emoji }));
      expectOk(await fx.api(c.member, 'DELETE', `${c.path}/${encodeURIComponent(emoji)}`));
    }
    expect(await reactionsOf(c.messageId)).toBe(0);
  });

  test('bad emoji are 400 validation_failed and store nothing', async () => {
    const c = await setup();
    // Whitespace, controls, invisible and bidirectional characters, too long, a lone surrogate.
    for (const emoji of ['', ' ', 'a b', '👍\n', '\u0007', '\u00a0', '\u200b', '\u202e👍', '\ufeff', 'x'.repeat(65), '\ud83d']) {
      expectError(await fx.api(c.member, 'POST', c.path, { emoji }), 400, 'validation_failed', 'body.emoji');
    }
    expectError(await fx.api(c.member, 'POST', c.path, {}), 400, 'validation_failed', 'body.emoji');
    expectError(await fx.api(c.member, 'POST', c.path, { emoji: 5 }), 400, 'validation_failed', 'body.emoji');
    expectError(await fx.api(c.member, 'POST', c.path, { emoji: '👍', extra: true }), 400, 'validation_failed', 'body.extra');
    expectError(await fx.api(c.member, 'DELETE', `${c.path}/a%20b`), 400, 'validation_failed', 'path.emoji');
    expectError(await fx.api(c.member, 'DELETE', `${c.path}/%E2%80%8B`), 400, 'validation_failed', 'path.emoji');
    expectError(await fx.api(c.member, 'DELETE', `${c.path}/${'x'.repeat(65)}`), 400, 'validation_failed', 'path.emoji');
    expect(await reactionsOf(c.messageId)).toBe(0);
    expect(await fx.events('reaction.added', { messageId: c.messageId })).toBe(0);
  });

  test('a recalled message takes no reactions: 409 message_recalled', async () => {
    const c = await setup();
    expectOk(await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages/${c.messageId}/recall`));
    expectError(await fx.api(c.member, 'POST', c.path, { emoji: '👍' }), 409, 'message_recalled');
    expect(await reactionsOf(c.messageId)).toBe(0);
  });

  test('non-member 404 room_not_found; unknown message 404 message_not_found', async () => {
    const c = await setup();
    expectError(await fx.api(c.outsider, 'GET', c.path), 404, 'room_not_found');
    expectError(await fx.api(c.outsider, 'POST', c.path, { emoji: '👍' }), 404, 'room_not_found');
    expectError(await fx.api(c.outsider, 'DELETE', `${c.path}/x`), 404, 'room_not_found');
    const unknown = `/rooms/${c.roomId}/messages/${newId()}/reactions`;
    expectError(await fx.api(c.member, 'GET', unknown), 404, 'message_not_found');
    expectError(await fx.api(c.member, 'POST', unknown, { emoji: '👍' }), 404, 'message_not_found');
    expectError(await fx.api(c.member, 'DELETE', `${unknown}/x`), 404, 'message_not_found');
    expect(await reactionsOf(c.messageId)).toBe(0);
  });

  test('concurrent adds of the same reaction store one row', async () => {
    const c = await setup();
    const results = await Promise.all(Array.from({ length: 8 }, () => fx.api(c.member, 'POST', c.path, { emoji: '🔥' })));
    for (const r of results) expectOk(r);
    expect(await reactionsOf(c.messageId)).toBe(1);
    expect(await fx.events('reaction.added', { messageId: c.messageId })).toBe(1);
  });

  test('reactions and pins racing a recall are either removed by it or refused with 409: none survive it', async () => {
    for (let round = 0; round < 5; round++) {
      const c = await setup();
      const base = `/rooms/${c.roomId}/messages/${c.messageId}`;
      const results = await Promise.all([
        ...['👍', '🎉', '🔥'].map((emoji) => fx.api(c.member, 'POST', c.path, { emoji })),
        fx.api(c.owner, 'POST', `${base}/pin?scope=ROOM`),
        fx.api(c.member, 'POST', `${base}/pin?scope=PERSONAL`),
        fx.api(c.owner, 'POST', `${base}/recall`),
      ]);
      for (const r of results) expect([200, 409]).toContain(r.status);
      expect(results[results.length - 1]!.status).toBe(200);
      expect(await reactionsOf(c.messageId)).toBe(0);
      expect(await count(platform.db, 'select count(*) as n from room_pins where message_id = $1', [c.messageId])).toBe(0);
      expect(await count(platform.db, 'select count(*) as n from personal_pins where message_id = $1', [c.messageId])).toBe(0);
    }
  });
});
