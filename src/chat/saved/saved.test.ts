// Saved messages over the real listener: idempotent save (same savedId, note updated), the feed (default 50, cursor
// paging, newest first, origin, the message as the caller sees it), note edit, unsave, membership gates, bad input
// changing nothing, and what recall and leaving do to a card.
import { newId } from '../../platform/ids.js';
import { chatFixtures } from '../../../test/helpers/chat-fixtures.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';
import { chatNextCursor, cursorParam, walkPages } from '../../../test/helpers/paging.js';

let platform: TestPlatform;
let fx: ReturnType<typeof chatFixtures>;
let tenant: TestTenant;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] });
  tenant = await platform.tenant();
  fx = chatFixtures(platform, tenant);
});
afterAll(async () => {
  await platform.stop();
});

const save = (who: TestAccount, body: Record<string, unknown>) => fx.api(who, 'POST', '/me/saved', body);
const cards = (who: TestAccount) => count(platform.db, 'select count(*) as n from saved_messages where account_id = $1', [who.id]);
const savedEvents = (who: TestAccount) =>
  count(platform.db, "select count(*) as n from outbox where topic like 'saved.%' and payload->'audience'->'accountIds' ? $1", [who.id]);
const snapshot = async (who: TestAccount) =>
  (await platform.db.query('select json_agg(s order by s.id) as s from saved_messages s where account_id = $1', [who.id])).rows[0].s;

describe('saving', () => {
  test('save answers the card with the message, note and origin; saving again answers the same savedId and updates the note', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.owner, c.roomId, 'worth keeping');
    const first = await save(c.member, { roomId: c.roomId, messageId: m.id, note: 'read later' });
    expectOk(first);
    const card = first.body.data;
    expect(card).toMatchObject({
      note: 'read later',
      origin: { roomId: c.roomId, messageId: m.id },
      message: { id: m.id, roomId: c.roomId, text: 'worth keeping', senderId: c.owner.id, recalled: false, hiddenForMe: false },
    });
    expect(typeof card.savedId).toBe('string');
    expect(card.savedAt).toBe(card.updatedAt);

    const again = await save(c.member, { roomId: c.roomId, messageId: m.id, note: 'read now' });
    expectOk(again);
    expect(again.body.data).toMatchObject({ savedId: card.savedId, note: 'read now', savedAt: card.savedAt });
    // No note: the card keeps its note; null clears it.
    const kept = await save(c.member, { roomId: c.roomId, messageId: m.id });
    expect(kept.body.data).toMatchObject({ savedId: card.savedId, note: 'read now' });
    const cleared = await save(c.member, { roomId: c.roomId, messageId: m.id, note: null });
    expect(cleared.body.data).toMatchObject({ savedId: card.savedId, note: null });
    expect(await cards(c.member)).toBe(1);

    const { rows } = await platform.db.query("select topic, payload from outbox where payload->>'savedId' = $1 order by id", [
      card.savedId,
    ]);
    expect(rows.map((r) => [r.topic, r.payload.note])).toEqual([
      ['saved.added', 'read later'],
      ['saved.updated', 'read now'],
      ['saved.updated', null],
    ]);
    expect(rows[0].payload).toEqual({
      audience: { kind: 'accounts', accountIds: [c.member.id] },
      savedId: card.savedId,
      roomId: c.roomId,
      messageId: m.id,
      note: 'read later',
    });
  });

  test('concurrent saves of one message make one card with one savedId', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.owner, c.roomId, 'popular');
    const results = await Promise.all(Array.from({ length: 8 }, () => save(c.member, { roomId: c.roomId, messageId: m.id })));
    for (const r of results) expectOk(r);
    expect(new Set(results.map((r) => r.body.data.savedId)).size).toBe(1);
    expect(await cards(c.member)).toBe(1);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'saved.added' and payload->>'messageId' = $1", [m.id]),
    ).toBe(1);
  });

  test('a message of a room the caller is not in is 404 room_not_found; one not in the room is 404 message_not_found', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.owner, c.roomId, 'members only');
    const elsewhere = await fx.room(c.member);
    expectError(await save(c.outsider, { roomId: c.roomId, messageId: m.id }), 404, 'room_not_found');
    expectError(await save(c.member, { roomId: elsewhere, messageId: m.id }), 404, 'message_not_found');
    expectError(await save(c.member, { roomId: c.roomId, messageId: newId() }), 404, 'message_not_found');
    expectError(await save(c.member, { roomId: newId(), messageId: m.id }), 404, 'room_not_found');
    expect(await cards(c.outsider)).toBe(0);
    expect(await cards(c.member)).toBe(0);
    expect(await savedEvents(c.member)).toBe(0);
  });

  test('a recalled message cannot be saved (409 message_recalled); a hidden one can', async () => {
    const c = await fx.cast();
    const recalled = await fx.send(c.owner, c.roomId, 'oops');
    expectOk(await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages/${recalled.id}/recall`));
    expectError(await save(c.member, { roomId: c.roomId, messageId: recalled.id }), 409, 'message_recalled');
    const hidden = await fx.send(c.owner, c.roomId, 'hidden for me');
    expectOk(await fx.api(c.member, 'DELETE', `/rooms/${c.roomId}/messages/${hidden.id}`));
    const res = await save(c.member, { roomId: c.roomId, messageId: hidden.id });
    expectOk(res);
    expect(res.body.data.message).toMatchObject({ id: hidden.id, hiddenForMe: true, text: 'hidden for me' });
    expect(await cards(c.member)).toBe(1);
  });

  test('bad input is 400 and stores nothing', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.owner, c.roomId, 'x');
    expectError(await save(c.member, { roomId: c.roomId }), 400, 'validation_failed', 'body.messageId');
    expectError(await save(c.member, { roomId: 'nope', messageId: m.id }), 400, 'validation_failed', 'body.roomId');
    expectError(await save(c.member, { roomId: c.roomId, messageId: m.id, note: 'n'.repeat(2001) }), 400, 'validation_failed', 'body.note');
    expectError(await save(c.member, { roomId: c.roomId, messageId: m.id, note: 5 }), 400, 'validation_failed', 'body.note');
    expectError(await save(c.member, { roomId: c.roomId, messageId: m.id, savedId: 'mine' }), 400, 'validation_failed');
    expect(await cards(c.member)).toBe(0);
    expect(await savedEvents(c.member)).toBe(0);
  });
});

describe('the feed', () => {
  test('newest saved first, default 50, cursor pages through all of them without repeats', async () => {
    const c = await fx.cast();
    const ids: string[] = [];
    for (let i = 0; i < 53; i++) ids.push((await fx.send(c.owner, c.roomId, `m${i}`)).id);
    // Saved in order, one millisecond apart at least, so the newest saved is the last message.
    for (const id of ids) {
      expectOk(await save(c.member, { roomId: c.roomId, messageId: id }));
      await new Promise((r) => setTimeout(r, 2));
    }
    const first = await fx.api(c.member, 'GET', '/me/saved');
    expectOk(first);
    expect(first.body.data).toHaveLength(50);
    expect(first.body.meta.hasMore).toBe(true);
    expect(first.body.data[0].message.text).toBe('m52');
    expect(first.body.data[0].origin).toEqual({ roomId: c.roomId, messageId: ids[52] });
    const second = await fx.api(c.member, 'GET', `/me/saved?cursor=${encodeURIComponent(first.body.meta.nextCursor)}`);
    expectOk(second);
    expect(second.body.data.map((d: { message: { text: string } }) => d.message.text)).toEqual(['m2', 'm1', 'm0']);
    expect(second.body.meta).toMatchObject({ hasMore: false, nextCursor: null });

    const pages = await walkPages((cursor) => fx.api(c.member, 'GET', `/me/saved?limit=7${cursorParam(cursor)}`), chatNextCursor);
    const seen: string[] = pages.flatMap((page) => page.body.data.map((d: { origin: { messageId: string } }) => d.origin.messageId));
    expect(seen).toEqual([...ids].reverse());
    // Another account's feed is its own.
    expect((await fx.api(c.owner, 'GET', '/me/saved')).body.data).toEqual([]);
  });

  test('a recalled message stays on its card with text null; an edit shows the new text', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.owner, c.roomId, 'before');
    const n = await fx.send(c.owner, c.roomId, 'will be recalled');
    const card = (await save(c.member, { roomId: c.roomId, messageId: m.id, note: 'keep' })).body.data;
    const other = (await save(c.member, { roomId: c.roomId, messageId: n.id })).body.data;
    expectOk(await fx.api(c.owner, 'PATCH', `/rooms/${c.roomId}/messages/${m.id}`, { text: 'after' }));
    expectOk(await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages/${n.id}/recall`));
    const feed = (await fx.api(c.member, 'GET', '/me/saved')).body.data;
    expect(feed.find((d: { savedId: string }) => d.savedId === card.savedId).message).toMatchObject({ text: 'after', recalled: false });
    expect(feed.find((d: { savedId: string }) => d.savedId === other.savedId)).toMatchObject({
      message: { id: n.id, text: null, recalled: true },
      origin: { roomId: c.roomId, messageId: n.id },
    });
  });

  test('bad limits and cursors are 400', async () => {
    const me = await tenant.account();
    expectError(await fx.api(me, 'GET', '/me/saved?limit=0'), 400, 'validation_failed', 'query.limit');
    expectError(await fx.api(me, 'GET', '/me/saved?limit=101'), 400, 'validation_failed', 'query.limit');
    expectError(await fx.api(me, 'GET', '/me/saved?cursor=abc'), 400, 'invalid_cursor', 'query.cursor');
  });

  test("leaving the room removes the caller's cards of it (and only them)", async () => {
    const c = await fx.cast();
    const other = await fx.room(c.admin, [c.member]);
    const m = await fx.send(c.owner, c.roomId, 'in the room left');
    const k = await fx.send(c.admin, other, 'in the room kept');
    await save(c.member, { roomId: c.roomId, messageId: m.id });
    await save(c.owner, { roomId: c.roomId, messageId: m.id });
    const kept = (await save(c.member, { roomId: other, messageId: k.id })).body.data;
    expectOk(await fx.api(c.member, 'POST', `/rooms/${c.roomId}/leave`));
    const feed = (await fx.api(c.member, 'GET', '/me/saved')).body.data;
    expect(feed.map((d: { savedId: string }) => d.savedId)).toEqual([kept.savedId]);
    expect(await cards(c.owner)).toBe(1);
  });
});

describe('note and unsave', () => {
  test('PATCH sets and clears the note; absent note or body changes nothing; one event per change', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.owner, c.roomId, 'noted');
    const card = (await save(c.member, { roomId: c.roomId, messageId: m.id })).body.data;
    const set = await fx.api(c.member, 'PATCH', `/me/saved/${card.savedId}`, { note: 'a note' });
    expectOk(set);
    expect(set.body.data).toMatchObject({ savedId: card.savedId, note: 'a note', savedAt: card.savedAt });
    const same = await fx.api(c.member, 'PATCH', `/me/saved/${card.savedId}`, { note: 'a note' });
    expect(same.body.data).toEqual(set.body.data);
    const nothing = await fx.api(c.member, 'PATCH', `/me/saved/${card.savedId}`, {});
    expect(nothing.body.data).toEqual(set.body.data);
    const noBody = await fx.api(c.member, 'PATCH', `/me/saved/${card.savedId}`);
    expectOk(noBody);
    expect(noBody.body.data).toEqual(set.body.data);
    const cleared = await fx.api(c.member, 'PATCH', `/me/saved/${card.savedId}`, { note: null });
    expect(cleared.body.data.note).toBeNull();
    const blank = await fx.api(c.member, 'PATCH', `/me/saved/${card.savedId}`, { note: '  ' });
    expect(blank.body.data.note).toBeNull();
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'saved.updated' and payload->>'savedId' = $1", [
        card.savedId,
      ]),
    ).toBe(2);
  });

  test("another account's card, an unknown id or any other string is 404 saved_not_found, nothing changes", async () => {
    const c = await fx.cast();
    const m = await fx.send(c.owner, c.roomId, 'mine');
    const card = (await save(c.member, { roomId: c.roomId, messageId: m.id, note: 'private' })).body.data;
    const before = await snapshot(c.member);
    for (const id of [card.savedId, newId()]) {
      expectError(await fx.api(c.owner, 'PATCH', `/me/saved/${id}`, { note: 'hijack' }), 404, 'saved_not_found');
      expectError(await fx.api(c.owner, 'DELETE', `/me/saved/${id}`), 404, 'saved_not_found');
    }
    expectError(await fx.api(c.member, 'PATCH', '/me/saved/not-a-card', { note: 'x' }), 404, 'saved_not_found');
    expectError(await fx.api(c.member, 'DELETE', `/me/saved/${encodeURIComponent('%00\u00e9')}`), 404, 'saved_not_found');
    expectError(
      await fx.api(c.member, 'PATCH', `/me/saved/${card.savedId}`, { note: 'n'.repeat(2001) }),
      400,
      'validation_failed',
      'body.note',
    );
    expect(await snapshot(c.member)).toEqual(before);
  });

  test('unsave removes the card with one event; the message can be saved again as a new card', async () => {
    const c = await fx.cast();
    const m = await fx.send(c.owner, c.roomId, 'fleeting');
    const card = (await save(c.member, { roomId: c.roomId, messageId: m.id })).body.data;
    const res = await fx.api(c.member, 'DELETE', `/me/saved/${card.savedId}`);
    expectOk(res);
    expect(res.body.data).toEqual({ savedId: card.savedId, status: 'deleted' });
    expect(await cards(c.member)).toBe(0);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'saved.removed' and payload->>'savedId' = $1", [
        card.savedId,
      ]),
    ).toBe(1);
    expectError(await fx.api(c.member, 'DELETE', `/me/saved/${card.savedId}`), 404, 'saved_not_found');
    const again = await save(c.member, { roomId: c.roomId, messageId: m.id });
    expect(again.body.data.savedId).not.toBe(card.savedId);
  });
});
