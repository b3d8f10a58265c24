// Message search over the real listener: every word of the query, in lower case, over the caller's rooms only;
// highlights; thread replies found and roots carrying their thread summary; recalled and hidden messages never
// returned; the room, sender and time filters; newest and relevance order with signed cursors bound to the query;
// bad queries answered 400 in the chat envelope.
import { randomBytes } from 'node:crypto';
import { chatFixtures } from '../../../test/helpers/chat-fixtures.js';
import { expectError, expectOk } from '../../../test/helpers/expect.js';
import { startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';
import { alternate, optional } from '../../../test/helpers/data.js';
import { chatNextCursor, walkPages } from '../../../test/helpers/paging.js';

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

/** A word no other test uses, so each test sees only its own messages. */
const unique = () => `w${randomBytes(5).toString('hex')}`;
const search = (who: TestAccount, query: Record<string, string>) => fx.api(who, 'GET', `/search/messages?${new URLSearchParams(query)}`);
const ids = (res: { body: { data: { message: { id: string } }[] } }) => res.body.data.map((hit) => hit.message.id);

test('finds the messages with every word of the query, in any letter case, in the rooms of the caller only, with highlights', async () => {
  const c = await fx.cast();
  const other = await fx.room(c.outsider, [c.admin]);
  const w = unique();
  const both = await fx.send(c.owner, c.roomId, `Deploy ${w.toUpperCase()} tonight, then deploy again`);
  await fx.send(c.owner, c.roomId, `${w} alone`);
  const elsewhere = await fx.send(c.outsider, other, `deploy ${w}`);

  const res = await search(c.member, { q: `deploy ${w}` });
  expectOk(res);
  expect(ids(res)).toEqual([both.id]);
  expect(res.body.data[0].message).toMatchObject({ id: both.id, roomId: c.roomId, senderId: c.owner.id, text: both.text });
  const text: string = both.text;
  expect(res.body.data[0].highlights.map((h: { offset: number; length: number }) => text.slice(h.offset, h.offset + h.length))).toEqual([
    'Deploy',
    w.toUpperCase(),
    'deploy',
  ]);
  expect(res.body.meta).toMatchObject({ hasMore: false, nextCursor: null });
  // The admin is a member of both rooms and finds both, newest first.
  expect(ids(await search(c.admin, { q: `deploy ${w}` }))).toEqual([elsewhere.id, both.id]);
  // A non-member names the room: 404, as everywhere in the chat service.
  expectError(await search(c.member, { q: w, roomId: other }), 404, 'room_not_found');
});

test('thread replies are found and a root with replies carries its thread summary', async () => {
  const c = await fx.cast();
  const w = unique();
  const root = await fx.send(c.owner, c.roomId, `root ${w}`);
  const reply = await fx.api(c.member, 'POST', `/rooms/${c.roomId}/messages`, { text: `reply ${w}`, threadRootId: root.id });
  expect(reply.status).toBe(201);
  const res = await search(c.owner, { q: w });
  expect(ids(res)).toEqual([reply.body.data.id, root.id]);
  expect(res.body.data[0].message.threadRootId).toBe(root.id);
  expect(res.body.data[1].message.thread).toMatchObject({ replyCount: 1 });
});

test('recalled messages and messages the caller hid are never returned', async () => {
  const c = await fx.cast();
  const w = unique();
  const kept = await fx.send(c.owner, c.roomId, `kept ${w}`);
  const recalled = await fx.send(c.owner, c.roomId, `recalled ${w}`);
  const hidden = await fx.send(c.owner, c.roomId, `hidden ${w}`);
  expectOk(await fx.api(c.owner, 'POST', `/rooms/${c.roomId}/messages/${recalled.id}/recall`));
  expectOk(await fx.api(c.member, 'DELETE', `/rooms/${c.roomId}/messages/${hidden.id}`));
  expect(ids(await search(c.member, { q: w }))).toEqual([kept.id]);
  // Hidden is per caller: the owner still finds it.
  expect(ids(await search(c.owner, { q: w }))).toEqual([hidden.id, kept.id]);
});

test('filters: room, sender and a time range', async () => {
  const c = await fx.cast();
  const second = await fx.room(c.owner, [c.member]);
  const w = unique();
  const a = await fx.send(c.owner, c.roomId, `a ${w}`);
  const b = await fx.send(c.member, c.roomId, `b ${w}`);
  const d = await fx.send(c.owner, second, `d ${w}`);
  expect(ids(await search(c.member, { q: w, roomId: c.roomId }))).toEqual([b.id, a.id]);
  expect(ids(await search(c.member, { q: w, from: c.owner.id }))).toEqual([d.id, a.id]);
  expect(ids(await search(c.member, { q: w, after: b.createdAt }))).toEqual([d.id, b.id]);
  expect(ids(await search(c.member, { q: w, before: b.createdAt }))).toEqual([a.id]);
});

test('a time bound with any RFC 3339 offset, or at the edge of the years, filters instead of failing', async () => {
  const c = await fx.cast();
  const w = unique();
  const a = await fx.send(c.owner, c.roomId, `a ${w}`);
  // +17:09 is past PostgreSQL's ±15:59; the same instant in UTC is 0219-02-19T05:26:20Z.
  expect(ids(await search(c.member, { q: w, before: '0219-02-19T22:35:20+17:09' }))).toEqual([]);
  expect(ids(await search(c.member, { q: w, after: '0219-02-19T22:35:20+17:09' }))).toEqual([a.id]);
  // An offset that moves the instant out of years 1 to 9999.
  expect(ids(await search(c.member, { q: w, after: '0001-01-01T00:00:00+05:00' }))).toEqual([a.id]);
  expect(ids(await search(c.member, { q: w, before: '9999-12-31T23:00:00-17:00' }))).toEqual([a.id]);
  // A leap second passes the date-time format but is no instant a Date can hold: 400 in the chat envelope.
  const leap = await search(c.member, { q: w, before: '2016-12-31T23:59:60Z' });
  expectError(leap, 400, 'validation_failed');
  expect(leap.body.error.details).toEqual([{ location: 'query.before', message: 'is not an instant' }]);
});

test('pages with cursors in newest and relevance order; a cursor pages only the search it came from', async () => {
  const c = await fx.cast();
  const w = unique();
  const sent: string[] = [];
  for (let i = 0; i < 5; i++) sent.push((await fx.send(c.owner, c.roomId, `${w} ${alternate(i, `${w} ${w}`, 'once')} number ${i}`)).id);

  const newest = await walkPages(async (cursor) => {
    const res = await search(c.member, { q: w, limit: '2', ...optional('cursor', cursor) });
    expectOk(res);
    return res;
  }, chatNextCursor);
  const seen: string[] = newest.flatMap(ids);
  expect(seen).toEqual([...sent].reverse());

  const byRelevance = await walkPages(
    (cursor) => search(c.member, { q: w, order: 'relevance', limit: '2', ...optional('cursor', cursor) }),
    chatNextCursor,
  );
  const ranked: string[] = byRelevance.flatMap(ids);
  // Three occurrences rank above one; newest first among equals.
  expect(ranked).toEqual([sent[4], sent[2], sent[0], sent[3], sent[1]]);

  const first = await search(c.member, { q: w, limit: '2' });
  const next = first.body.meta.nextCursor as string;
  expectError(await search(c.member, { q: `${w} number`, limit: '2', cursor: next }), 400, 'invalid_cursor');
  expectError(await search(c.member, { q: w, order: 'relevance', limit: '2', cursor: next }), 400, 'invalid_cursor');
  expectError(await search(c.owner, { q: w, limit: '2', cursor: next }), 400, 'invalid_cursor');
});

test('bad queries: operators, no word, too many words, oversize or missing q are 400 in the chat envelope', async () => {
  const c = await fx.cast();
  for (const q of ['cats & dogs', 'cat:*', '!dog', '"exact phrase"', 'a <-> b', 'x | y'])
    expectError(await search(c.member, { q }), 400, 'validation_failed', 'query.q');
  expectError(await search(c.member, { q: ' ... ' }), 400, 'validation_failed', 'query.q');
  expectError(await search(c.member, { q: Array.from({ length: 11 }, (_, i) => `w${i}`).join(' ') }), 400, 'validation_failed', 'query.q');
  expectError(await search(c.member, { q: 'x'.repeat(201) }), 400, 'validation_failed');
  expectError(await search(c.member, {}), 400, 'validation_failed');
  expectError(await search(c.member, { q: 'ok', limit: '101' }), 400, 'validation_failed');
});
