// Threads over the real listener: replies through sendMessage, automatic and manual follows, read marks and
// unread counts, the thread list, thread pages and the thread object of topLevelOnly pages.
import { encodeCursor } from '../../platform/http/cursor.js';
import { historyList } from '../messages/service.js';
import { threadListList, threadRepliesList } from './cursors.js';
import { newId } from '../../platform/ids.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import type { Runner } from '../../platform/db/typed.js';
import { threadList, threadPage, unreadThreadCount } from './thread-queries.js';
import { attachThreadInfo, replyCountColumn, rootsWithReplies, type MessageWithThread } from './thread-info.js';
import { messageColumns, messageView } from '../base/message-views.js';
import type { Queryable } from '../base/membership.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../../test/support/platform.js';
import { chatCursorWhileMore, chatNextCursor, cursorParam, pageParam, walkPages } from '../../../test/helpers/paging.js';
import { alternate, orDefault } from '../../../test/helpers/data.js';

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
  text: string | null;
  threadRootId: string | null;
  createdAt: string;
  thread?: Record<string, unknown>;
}

const pause = (ms = 4) => new Promise((r) => setTimeout(r, ms));
type Accounts<N extends number, R extends TestAccount[] = []> = R['length'] extends N ? R : Accounts<N, [...R, TestAccount]>;
const accounts = <N extends number>(n: N) => Promise.all(Array.from({ length: n }, () => tenant.account())) as Promise<Accounts<N>>;

async function newRoom(owner: TestAccount, members: TestAccount[] = []): Promise<string> {
  const res = await call(base, 'POST', '/api/v1/rooms', {
    token: owner.token,
    body: { type: 'GROUP', name: 'Threads', memberIds: members.map((m) => m.id) },
  });
  expectOk(res, 201);
  return res.body.data.id;
}
const send = (who: TestAccount, roomId: string, body: Record<string, unknown>) =>
  call(base, 'POST', `/api/v1/rooms/${roomId}/messages`, { token: who.token, body });
async function post(who: TestAccount, roomId: string, text: string): Promise<Msg> {
  const res = await send(who, roomId, { text });
  expectOk(res, 201);
  return res.body.data;
}
async function reply(who: TestAccount, roomId: string, rootId: string, text: string, extra: Record<string, unknown> = {}): Promise<Msg> {
  const res = await send(who, roomId, { text, threadRootId: rootId, ...extra });
  expectOk(res, 201);
  return res.body.data;
}
const get = (who: TestAccount, path: string) => call(base, 'GET', path, { token: who.token });
const follow = (who: TestAccount, rootId: string) => call(base, 'POST', `/api/v1/threads/${rootId}/follow`, { token: who.token });
const unfollow = (who: TestAccount, rootId: string) => call(base, 'DELETE', `/api/v1/threads/${rootId}/follow`, { token: who.token });
const markRead = (who: TestAccount, rootId: string, body: unknown) =>
  call(base, 'POST', `/api/v1/threads/${rootId}/read`, { token: who.token, body });
const followers = async (who: TestAccount, rootId: string): Promise<string[]> => {
  const res = await get(who, `/api/v1/threads/${rootId}/followers`);
  expectOk(res);
  expect(res.body.data.rootId).toBe(rootId);
  return res.body.data.accountIds;
};
const badge = async (who: TestAccount): Promise<number> => {
  const res = await get(who, '/api/v1/threads/unread-count');
  expectOk(res);
  return res.body.data.count;
};
const followRow = async (rootId: string, accountId: string) =>
  (await platform.db.query('select state, last_read_seq from thread_follows where root_id = $1 and account_id = $2', [rootId, accountId]))
    .rows[0] as { state: string; last_read_seq: number } | undefined;
const rootCounters = async (rootId: string) =>
  (await platform.db.query('select reply_count, last_reply_id, last_reply_at from messages where id = $1', [rootId])).rows[0] as {
    reply_count: number;
    last_reply_id: string | null;
    last_reply_at: Date | null;
  };
const seqOf = async (messageId: string) =>
  Number((await platform.db.query('select seq from messages where id = $1', [messageId])).rows[0].seq);
const outboxCount = (topic: string, where: string, params: unknown[]) =>
  count(platform.db, `select count(*) as n from outbox where topic = '${topic}' and ${where}`, params);
/** Everything a refused reply must leave alone. */
const roomState = async (roomId: string) =>
  (
    await platform.db.query(
      `select (select last_seq from rooms where id = $1) as last_seq,
              (select count(*)::int from messages where room_id = $1) as messages,
              (select coalesce(sum(reply_count), 0)::int from messages where room_id = $1) as replies,
              (select count(*)::int from thread_follows where room_id = $1) as follows,
              (select count(*)::int from outbox where payload->>'roomId' = $1::text) as events`,
      [roomId],
    )
  ).rows[0];

describe('replies', () => {
  test('a reply joins its root, a reply to a reply joins the same root, and the root counters follow', async () => {
    const [alice, bob] = await accounts(2);
    const roomId = await newRoom(alice, [bob]);
    const root = await post(alice, roomId, 'root');
    const r1 = await reply(bob, roomId, root.id, 'first');
    expect(r1).toMatchObject({ threadRootId: root.id, roomId, senderId: bob.id, text: 'first' });
    const r2 = await reply(alice, roomId, r1.id, 'reply to a reply');
    expect(r2.threadRootId).toBe(root.id);
    const counters = await rootCounters(root.id);
    expect(counters.reply_count).toBe(2);
    expect(counters.last_reply_id).toBe(r2.id);
    expect(counters.last_reply_at?.toISOString()).toBe(r2.createdAt);
    // The reply to a reply is no root of its own.
    expect((await rootCounters(r1.id)).reply_count).toBe(0);
    // Replies take room sequence numbers like any message.
    expect(await seqOf(r2.id)).toBe((await seqOf(r1.id)) + 1);
    const payload = (
      await platform.db.query("select payload from outbox where topic = 'message.created' and payload->>'messageId' = $1", [r2.id])
    ).rows[0].payload;
    expect(payload).toMatchObject({ roomId, messageId: r2.id, threadRootId: root.id, audience: { kind: 'room', roomId } });
    const top = (
      await platform.db.query("select payload from outbox where topic = 'message.created' and payload->>'messageId' = $1", [root.id])
    ).rows[0].payload;
    expect(top).toMatchObject({ threadRootId: null, audience: { kind: 'room', roomId } });
  });

  test('the root author and each replier follow automatically; the replier has read up to its reply', async () => {
    const [alice, bob, carol, dave] = await accounts(4);
    const roomId = await newRoom(alice, [bob, carol, dave]);
    const root = await post(alice, roomId, 'root');
    expect(await followers(dave, root.id)).toEqual([]);
    const r1 = await reply(bob, roomId, root.id, 'b1');
    expect((await followers(dave, root.id)).sort()).toEqual([alice.id, bob.id].sort());
    expect(await followRow(root.id, bob.id)).toEqual({ state: 'FOLLOWING', last_read_seq: await seqOf(r1.id) });
    expect(await followRow(root.id, alice.id)).toEqual({ state: 'FOLLOWING', last_read_seq: 0 });
    await reply(carol, roomId, root.id, 'c1');
    expect((await followers(dave, root.id)).sort()).toEqual([alice.id, bob.id, carol.id].sort());
    // Each automatic follow is one event to that account only; later replies add none.
    await reply(bob, roomId, root.id, 'b2');
    for (const who of [alice, bob, carol]) {
      expect(
        await outboxCount(
          'thread.followed',
          "payload->>'rootId' = $1 and payload->>'accountId' = $2 and payload->'audience'->'accountIds' = jsonb_build_array($2::text)",
          [root.id, who.id],
        ),
      ).toBe(1);
    }
    expect(await outboxCount('thread.followed', "payload->>'rootId' = $1", [root.id])).toBe(3);
    // Bob's own replies are read for him; Carol's later one is not.
    const bobView = await follow(bob, root.id);
    expect(bobView.body.data).toMatchObject({ state: 'FOLLOWING', unreadCount: 0 });
    const aliceView = await follow(alice, root.id);
    expect(aliceView.body.data).toMatchObject({ state: 'FOLLOWING', unreadCount: 3, lastReadSeq: 0 });
  });

  test('the root author replying to its own root follows once and its read mark moves', async () => {
    const alice = await tenant.account();
    const roomId = await newRoom(alice);
    const root = await post(alice, roomId, 'root');
    const r = await reply(alice, roomId, root.id, 'self');
    expect(await followRow(root.id, alice.id)).toEqual({ state: 'FOLLOWING', last_read_seq: await seqOf(r.id) });
    expect(await followers(alice, root.id)).toEqual([alice.id]);
  });

  test('an account that unfollowed is never followed again by later replies', async () => {
    const [alice, bob, carol] = await accounts(3);
    const roomId = await newRoom(alice, [bob, carol]);
    const root = await post(alice, roomId, 'root');
    await reply(bob, roomId, root.id, 'b1');
    expectOk(await unfollow(bob, root.id));
    // The root author (followed by Bob's reply) opts out too.
    expectOk(await unfollow(alice, root.id));
    await reply(carol, roomId, root.id, 'c1');
    const b2 = await reply(bob, roomId, root.id, 'b2 (still replying)');
    await reply(carol, roomId, root.id, 'c2');
    expect(await followers(carol, root.id)).toEqual([carol.id]);
    expect(await followRow(root.id, bob.id)).toEqual({ state: 'UNFOLLOWED', last_read_seq: await seqOf(b2.id) });
    expect((await followRow(root.id, alice.id))?.state).toBe('UNFOLLOWED');
    expect(await outboxCount('thread.followed', "payload->>'rootId' = $1 and payload->>'accountId' = $2", [root.id, alice.id])).toBe(1);
    // Following by hand again works.
    const again = await follow(bob, root.id);
    expect(again.body.data.state).toBe('FOLLOWING');
  });

  test('a root of another room or an unknown one is 404 message_not_found and nothing changes', async () => {
    const alice = await tenant.account();
    const [roomA, roomB] = [await newRoom(alice), await newRoom(alice)];
    await post(alice, roomA, 'a');
    const inB = await post(alice, roomB, 'b');
    const before = await roomState(roomA);
    expectError(await send(alice, roomA, { text: 'x', threadRootId: inB.id }), 404, 'message_not_found');
    expectError(await send(alice, roomA, { text: 'x', threadRootId: newId() }), 404, 'message_not_found');
    expectError(await send(alice, roomA, { text: 'x', threadRootId: newId(), clientMessageId: 'nf-1' }), 404, 'message_not_found');
    expect(await roomState(roomA)).toEqual(before);
    expect((await rootCounters(inB.id)).reply_count).toBe(0);
  });

  test('a recalled root takes no reply (409 message_recalled), also through one of its replies; nothing changes', async () => {
    const [alice, bob] = await accounts(2);
    const roomId = await newRoom(alice, [bob]);
    const root = await post(alice, roomId, 'root');
    const r1 = await reply(bob, roomId, root.id, 'b1');
    await platform.db.query('update messages set recalled_at = now() where id = $1', [root.id]);
    const before = await roomState(roomId);
    expectError(await send(bob, roomId, { text: 'x', threadRootId: root.id }), 409, 'message_recalled');
    expectError(await send(bob, roomId, { text: 'x', threadRootId: r1.id }), 409, 'message_recalled');
    expect(await roomState(roomId)).toEqual(before);
    // A recalled reply does not close its thread.
    const other = await post(alice, roomId, 'other root');
    const o1 = await reply(bob, roomId, other.id, 'o1');
    await platform.db.query('update messages set recalled_at = now() where id = $1', [o1.id]);
    expect((await reply(alice, roomId, o1.id, 'still open')).threadRootId).toBe(other.id);
  });

  test('a non-member replying is 404 room_not_found; a bad threadRootId is 400; nothing changes', async () => {
    const [alice, eve] = await accounts(2);
    const roomId = await newRoom(alice);
    const root = await post(alice, roomId, 'root');
    const before = await roomState(roomId);
    expectError(await send(eve, roomId, { text: 'x', threadRootId: root.id }), 404, 'room_not_found');
    expectError(await send(eve, roomId, { text: 'x', threadRootId: root.id, clientMessageId: 'e1' }), 404, 'room_not_found');
    for (const threadRootId of ['xyz', '', 42, null]) {
      expectError(await send(alice, roomId, { text: 'x', threadRootId }), 400, 'validation_failed', 'body.threadRootId');
    }
    expectError(await send(alice, roomId, { text: '', threadRootId: root.id }), 400, 'validation_failed', 'body.text');
    expect(await roomState(roomId)).toEqual(before);
  });

  test('a retried reply (same clientMessageId) returns the first reply and bumps nothing twice', async () => {
    const [alice, bob] = await accounts(2);
    const roomId = await newRoom(alice, [bob]);
    const root = await post(alice, roomId, 'root');
    const first = await send(bob, roomId, { text: 'once', threadRootId: root.id, clientMessageId: 'r-1' });
    expectOk(first, 201);
    const after = await roomState(roomId);
    const bobRow = await followRow(root.id, bob.id);
    const repeat = await send(bob, roomId, { text: 'once (retry)', threadRootId: root.id, clientMessageId: 'r-1' });
    expect(repeat.status).toBe(201);
    expect(repeat.body.data).toEqual(first.body.data);
    expect(repeat.headers.get('location')).toBe(first.headers.get('location'));
    expect(await roomState(roomId)).toEqual(after);
    expect(await followRow(root.id, bob.id)).toEqual(bobRow);
    expect((await rootCounters(root.id)).reply_count).toBe(1);
    // Concurrent retries of a new reply store it exactly once.
    const racing = await Promise.all(
      Array.from({ length: 8 }, () => send(bob, roomId, { text: 'race', threadRootId: root.id, clientMessageId: 'r-race' })),
    );
    for (const r of racing) expect(r.status).toBe(201);
    expect(new Set(racing.map((r) => r.body.data.id)).size).toBe(1);
    const counters = await rootCounters(root.id);
    expect(counters.reply_count).toBe(2);
    expect(counters.last_reply_id).toBe(racing[0]!.body.data.id);
    expect(await roomState(roomId)).toMatchObject({ last_seq: after.last_seq + 1, messages: after.messages + 1, events: after.events + 1 });
  });
});

describe('follow, unfollow, followers', () => {
  test('follow and unfollow are idempotent and emit one event per real change, to the caller only', async () => {
    const [alice, bob] = await accounts(2);
    const roomId = await newRoom(alice, [bob]);
    const root = await post(alice, roomId, 'root');
    const f1 = await follow(bob, root.id);
    expectOk(f1);
    expect(f1.body.data).toEqual({ rootId: root.id, roomId, state: 'FOLLOWING', lastReadSeq: 0, unreadCount: 0 });
    const f2 = await follow(bob, root.id);
    expect(f2.body.data).toEqual(f1.body.data);
    expect(await outboxCount('thread.followed', "payload->>'rootId' = $1", [root.id])).toBe(1);
    const ev = (
      await platform.db.query("select payload from outbox where topic = 'thread.followed' and payload->>'rootId' = $1", [root.id])
    ).rows[0].payload;
    expect(ev).toEqual({
      rootId: root.id,
      roomId,
      accountId: bob.id,
      automatic: false,
      audience: { kind: 'accounts', accountIds: [bob.id] },
    });
    for (let i = 0; i < 2; i++) {
      const u = await unfollow(bob, root.id);
      expectOk(u);
      expect(u.body.data).toEqual({ status: 'NOT_FOLLOWING' });
    }
    expect(await outboxCount('thread.unfollowed', "payload->>'rootId' = $1", [root.id])).toBe(1);
    expect(await followers(alice, root.id)).toEqual([]);
    // Unfollowing a thread never followed records the choice without an event.
    const u = await unfollow(alice, root.id);
    expect(u.body.data).toEqual({ status: 'NOT_FOLLOWING' });
    expect((await followRow(root.id, alice.id))?.state).toBe('UNFOLLOWED');
    expect(await outboxCount('thread.unfollowed', "payload->>'rootId' = $1", [root.id])).toBe(1);
    // Re-following by hand is a change again.
    expect((await follow(bob, root.id)).body.data.state).toBe('FOLLOWING');
    expect(await outboxCount('thread.followed', "payload->>'rootId' = $1", [root.id])).toBe(2);
    expect(await followers(alice, root.id)).toEqual([bob.id]);
  });

  test('concurrent follows and unfollows by one account end in one of the two states with events that match', async () => {
    const [alice, bob] = await accounts(2);
    const roomId = await newRoom(alice, [bob]);
    const root = await post(alice, roomId, 'root');
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => alternate(i, follow, unfollow)(bob, root.id)));
    for (const r of results) expect(r.status).toBe(200);
    const followed = await outboxCount('thread.followed', "payload->>'rootId' = $1", [root.id]);
    const unfollowed = await outboxCount('thread.unfollowed', "payload->>'rootId' = $1", [root.id]);
    // Events alternate, starting with a follow: the final state is what they add up to.
    expect(followed - unfollowed).toBe(Number((await followRow(root.id, bob.id))?.state === 'FOLLOWING'));
  });

  test('followers are the FOLLOWING accounts still in the room, empty when none', async () => {
    const [alice, bob, carol] = await accounts(3);
    const roomId = await newRoom(alice, [bob, carol]);
    const root = await post(alice, roomId, 'root');
    expect(await followers(bob, root.id)).toEqual([]);
    await follow(bob, root.id);
    await follow(carol, root.id);
    expect((await followers(alice, root.id)).sort()).toEqual([bob.id, carol.id].sort());
    await platform.db.query('delete from room_members where room_id = $1 and account_id = $2', [roomId, carol.id]);
    expect(await followers(alice, root.id)).toEqual([bob.id]);
  });

  test('non-members, unknown roots and deleted rooms are 404 room_not_found; a reply as root is 404 message_not_found', async () => {
    const [alice, bob, eve] = await accounts(3);
    const roomId = await newRoom(alice, [bob]);
    const root = await post(alice, roomId, 'root');
    const r1 = await reply(bob, roomId, root.id, 'b1');
    const followsBefore = await count(platform.db, 'select count(*) as n from thread_follows where root_id = $1', [root.id]);
    const threadEvents = () =>
      count(platform.db, "select count(*) as n from outbox where topic like 'thread.%' and payload->>'roomId' = $1", [roomId]);
    const eventsBefore = await threadEvents();
    const ops = (who: TestAccount, id: string) => [
      follow(who, id),
      unfollow(who, id),
      markRead(who, id, { messageId: id }),
      get(who, `/api/v1/threads/${id}/followers`),
    ];
    for (const res of await Promise.all([...ops(eve, root.id), ...ops(alice, newId())])) expectError(res, 404, 'room_not_found');
    for (const res of await Promise.all(ops(alice, r1.id))) expectError(res, 404, 'message_not_found');
    expectError(await get(eve, `/api/v1/rooms/${roomId}/threads`), 404, 'room_not_found');
    expectError(await get(eve, `/api/v1/rooms/${roomId}/threads/${root.id}`), 404, 'room_not_found');
    expect(await count(platform.db, 'select count(*) as n from thread_follows where root_id = $1', [root.id])).toBe(followsBefore);
    expect(await threadEvents()).toBe(eventsBefore);
    // A deleted room (decision 2: deleted_at set, members removed) answers like any room the caller is not in.
    await platform.db.query('update rooms set deleted_at = now() where id = $1', [roomId]);
    await platform.db.query('delete from room_members where room_id = $1', [roomId]);
    for (const res of await Promise.all(ops(bob, root.id))) expectError(res, 404, 'room_not_found');
    expectError(await get(bob, `/api/v1/rooms/${roomId}/threads`), 404, 'room_not_found');
    expect(await badge(alice)).toBe(0);
  });

  test('a path rootId that is no uuid is 400 validation_failed', async () => {
    const alice = await tenant.account();
    expectError(await follow(alice, 'nope'), 400, 'validation_failed', 'path.rootId');
    expectError(await markRead(alice, 'nope', { messageId: newId() }), 400, 'validation_failed', 'path.rootId');
  });
});

describe('read marks and unread counts', () => {
  test('marking read moves the mark forward only, answers the unread count, and does not make the caller follow', async () => {
    const [alice, bob, carol] = await accounts(3);
    const roomId = await newRoom(alice, [bob, carol]);
    const root = await post(alice, roomId, 'root');
    const replies: Msg[] = [];
    for (let i = 0; i < 4; i++) replies.push(await reply(bob, roomId, root.id, `b${i}`));
    expect(await badge(alice)).toBe(1);
    const r = await markRead(alice, root.id, { messageId: replies[1]!.id });
    expectOk(r);
    expect(r.body.data).toEqual({ rootId: root.id, roomId, state: 'FOLLOWING', lastReadSeq: await seqOf(replies[1]!.id), unreadCount: 2 });
    // Backwards and the root itself change nothing.
    for (const messageId of [replies[0]!.id, root.id]) {
      const back = await markRead(alice, root.id, { messageId });
      expect(back.body.data).toEqual(r.body.data);
    }
    expect(await outboxCount('thread.read', "payload->>'rootId' = $1 and payload->>'accountId' = $2", [root.id, alice.id])).toBe(1);
    expect(await badge(alice)).toBe(1);
    const all = await markRead(alice, root.id, { messageId: replies[3]!.id });
    expect(all.body.data.unreadCount).toBe(0);
    expect(await badge(alice)).toBe(0);
    const ev = (
      await platform.db.query(
        "select payload from outbox where topic = 'thread.read' and payload->>'rootId' = $1 order by id desc limit 1",
        [root.id],
      )
    ).rows[0].payload;
    expect(ev).toEqual({
      rootId: root.id,
      roomId,
      accountId: alice.id,
      lastReadSeq: await seqOf(replies[3]!.id),
      audience: { kind: 'accounts', accountIds: [alice.id] },
    });
    // Carol reads without following: her mark is kept, she does not follow, and the badge ignores the thread.
    const c = await markRead(carol, root.id, { messageId: replies[2]!.id });
    expect(c.body.data).toMatchObject({ state: 'NOT_FOLLOWING', unreadCount: 1 });
    expect(await followers(carol, root.id)).not.toContain(carol.id);
    expect(await badge(carol)).toBe(0);
    // Her read mark does not block the automatic follow when she replies.
    await reply(carol, roomId, root.id, 'c0');
    expect(await followers(carol, root.id)).toContain(carol.id);
  });

  test('unread counts leave out own, recalled and hidden replies; hides are per account', async () => {
    const [alice, bob, carol] = await accounts(3);
    const roomId = await newRoom(alice, [bob, carol]);
    const root = await post(alice, roomId, 'root');
    await reply(bob, roomId, root.id, 'b1');
    await reply(carol, roomId, root.id, 'c1');
    await reply(bob, roomId, root.id, 'b2');
    await reply(alice, roomId, root.id, 'a1'); // Alice has read everything up to here now.
    const b3 = await reply(bob, roomId, root.id, 'b3');
    const c2 = await reply(carol, roomId, root.id, 'c2');
    const unreadOf = async (who: TestAccount) => (await follow(who, root.id)).body.data.unreadCount;
    expect(await unreadOf(alice)).toBe(2);
    await platform.db.query('insert into message_hides (account_id, message_id, room_id, hidden_at) values ($1, $2, $3, now())', [
      alice.id,
      b3.id,
      roomId,
    ]);
    expect(await unreadOf(alice)).toBe(1);
    expect(await unreadOf(bob)).toBe(1); // his mark is at his b3: only c2
    await platform.db.query('update messages set recalled_at = now() where id = $1', [c2.id]);
    expect(await unreadOf(alice)).toBe(0);
    expect(await unreadOf(bob)).toBe(0);
    expect(await badge(alice)).toBe(0);
    // Carol's view: her mark is at c2, nothing after it.
    expect(await unreadOf(carol)).toBe(0);
  });
});

describe('thread list', () => {
  test('active threads only, newest reply first, with the summary fields', async () => {
    const [alice, bob] = await accounts(2);
    const roomId = await newRoom(alice, [bob]);
    const roots: Msg[] = [];
    for (let i = 0; i < 4; i++) roots.push(await post(alice, roomId, `root ${i}`));
    await post(alice, roomId, 'no replies');
    for (const i of [0, 1, 2]) {
      await reply(bob, roomId, roots[i]!.id, `r${i}`);
      await pause();
    }
    const last = await reply(bob, roomId, roots[0]!.id, 'r0 again');
    const res = await get(alice, `/api/v1/rooms/${roomId}/threads`);
    expectOk(res);
    expect(res.body.data.map((t: { root: Msg }) => t.root.id)).toEqual([roots[0]!.id, roots[2]!.id, roots[1]!.id]);
    expect(res.body.meta).toMatchObject({ hasMore: false, nextCursor: null });
    const top = res.body.data[0];
    expect(top).toEqual({
      root: expect.objectContaining({ id: roots[0]!.id, text: 'root 0', threadRootId: null, hiddenForMe: false }),
      replyCount: 2,
      lastReplyAt: last.createdAt,
      lastReply: { id: last.id, senderId: bob.id, text: 'r0 again', createdAt: last.createdAt },
      unreadCount: 2,
      following: true,
    });
    // Bob's view: his own replies are read; he follows as a replier.
    const bobs = await get(bob, `/api/v1/rooms/${roomId}/threads`);
    expect(bobs.body.data[0]).toMatchObject({ unreadCount: 0, following: true });
    // A recalled last reply shows without text; one the caller hid is skipped in the preview.
    await platform.db.query('update messages set recalled_at = now() where id = $1', [last.id]);
    expect((await get(alice, `/api/v1/rooms/${roomId}/threads`)).body.data[0].lastReply).toEqual({
      id: last.id,
      senderId: bob.id,
      text: null,
      createdAt: last.createdAt,
    });
    await platform.db.query('insert into message_hides (account_id, message_id, room_id, hidden_at) values ($1, $2, $3, now())', [
      alice.id,
      last.id,
      roomId,
    ]);
    expect((await get(alice, `/api/v1/rooms/${roomId}/threads`)).body.data[0].lastReply.text).toBe('r0');
  });

  test('pages follow the cursor, each thread exactly once; default limit 20', async () => {
    const [alice, bob] = await accounts(2);
    const roomId = await newRoom(alice, [bob]);
    const expected: string[] = [];
    for (let i = 0; i < 23; i++) {
      const root = await post(alice, roomId, `t${i}`);
      await reply(bob, roomId, root.id, `r${i}`);
      expected.unshift(root.id);
      await pause(2);
    }
    const first = await get(alice, `/api/v1/rooms/${roomId}/threads`);
    expect(first.body.data).toHaveLength(20);
    expect(first.body.meta.hasMore).toBe(true);
    const pages = await walkPages(async (cursor) => {
      const res = await get(alice, `/api/v1/rooms/${roomId}/threads?limit=4${cursorParam(cursor, false)}`);
      expectOk(res);
      expect(res.body.meta.hasMore).toBe(res.body.meta.nextCursor !== null);
      return res;
    }, chatNextCursor);
    const seen: string[] = pages.flatMap((res) => res.body.data.map((t: { root: Msg }) => t.root.id));
    expect(seen).toEqual(expected);
    expectError(await get(alice, `/api/v1/rooms/${roomId}/threads?limit=101`), 400, 'validation_failed', 'query.limit');
    expectError(await get(alice, `/api/v1/rooms/${roomId}/threads?limit=0`), 400, 'validation_failed', 'query.limit');
  });

  test.each([
    ['a far-future instant', { a: '+275760-09-13T00:00:00Z', i: newId() }],
    ['year zero', { a: '0000-01-01T00:00:00.000Z', i: newId() }],
    ['an impossible date', { a: '2026-02-30T00:00:00.000Z', i: newId() }],
    ['no id', { a: '2026-01-01T00:00:00.000Z' }],
    ['a seq cursor', { s: 1 }],
  ])('a hand-built cursor (%s) is 400 invalid_cursor', async (_name, keyset) => {
    const alice = await tenant.account();
    const roomId = await newRoom(alice);
    expectError(
      await get(alice, `/api/v1/rooms/${roomId}/threads?cursor=${encodeCursor(keyset as Record<string, string>, threadListList(roomId))}`),
      400,
      'invalid_cursor',
      'query.cursor',
    );
  });

  test('raw non-cursor strings are 400 invalid_cursor', async () => {
    const alice = await tenant.account();
    const roomId = await newRoom(alice);
    for (const raw of ['0000-01-01', '1', '%22x%22']) {
      expectError(await get(alice, `/api/v1/rooms/${roomId}/threads?cursor=${raw}`), 400, 'invalid_cursor');
    }
  });
});

describe('thread page', () => {
  let alice: TestAccount;
  let bob: TestAccount;
  let roomId: string;
  let root: Msg;
  const replies: string[] = [];

  beforeAll(async () => {
    [alice, bob] = await accounts(2);
    roomId = await newRoom(alice, [bob]);
    root = await post(alice, roomId, 'root');
    for (let i = 0; i < 9; i++) {
      replies.push((await reply(i % 2 ? alice : bob, roomId, root.id, `r${i}`)).id);
      await post(alice, roomId, `between ${i}`); // top-level traffic between replies
    }
  });

  const page = (who: TestAccount, query = '') => get(who, `/api/v1/rooms/${roomId}/threads/${root.id}${query}`);

  test('no cursor gives the newest replies in chronological order', async () => {
    const res = await page(alice, '?limit=4');
    expectOk(res);
    expect(res.body.data.map((m: Msg) => m.id)).toEqual(replies.slice(5));
    expect(res.body.data.every((m: Msg) => m.threadRootId === root.id)).toBe(true);
    expect(res.body.meta.hasMore).toBe(true);
    const all = await page(alice);
    expect(all.body.data.map((m: Msg) => m.id)).toEqual(replies);
    expect(all.body.meta).toMatchObject({ hasMore: false, nextCursor: null });
  });

  test.each([[1], [2], [4], [9]])('before walks back and after walks forward, each reply once (limit %i)', async (limit) => {
    const backPages = await walkPages((cursor) => page(alice, `?limit=${limit}${pageParam('before', cursor)}`), chatCursorWhileMore);
    const back: string[][] = backPages.map((res) => res.body.data.map((m: Msg) => m.id));
    expect(back.reverse().flat()).toEqual(replies);
    const start = encodeCursor({ s: 0 }, threadRepliesList(root.id));
    const forwardPages = await walkPages((cursor) => page(alice, `?limit=${limit}&after=${orDefault(cursor, start)}`), chatCursorWhileMore);
    const forward: string[] = forwardPages.flatMap((res) => res.body.data.map((m: Msg) => m.id));
    expect(forward).toEqual(replies);
  });

  test('hidden replies are left out after hasMore and nextCursor are computed on the raw rows', async () => {
    const [carol] = await accounts(1);
    await platform.db.query('insert into room_members (room_id, account_id, role, joined_at) values ($1, $2, $3, now())', [
      roomId,
      carol.id,
      'MEMBER',
    ]);
    for (const id of replies.slice(6)) {
      await platform.db.query('insert into message_hides (account_id, message_id, room_id, hidden_at) values ($1, $2, $3, now())', [
        carol.id,
        id,
        roomId,
      ]);
    }
    const res = await page(carol, '?limit=3');
    expectOk(res);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta.hasMore).toBe(true);
    const next = await page(carol, `?limit=3&before=${res.body.meta.nextCursor}`);
    expect(next.body.data.map((m: Msg) => m.id)).toEqual(replies.slice(3, 6));
  });

  test('bad cursors, both directions, unknown roots, replies and roots of other rooms are refused', async () => {
    expectError(
      await page(
        alice,
        `?before=${encodeCursor({ s: 1 }, threadRepliesList(root.id))}&after=${encodeCursor({ s: 1 }, threadRepliesList(root.id))}`,
      ),
      400,
      'validation_failed',
      'query.after',
    );
    expectError(await page(alice, `?before=${encodeCursor({ s: -1 }, threadRepliesList(root.id))}`), 400, 'invalid_cursor', 'query.before');
    expectError(await page(alice, `?after=${encodeCursor({ a: 'x' }, threadRepliesList(root.id))}`), 400, 'invalid_cursor', 'query.after');
    expectError(await page(alice, '?limit=101'), 400, 'validation_failed', 'query.limit');
    expectError(await get(alice, `/api/v1/rooms/${roomId}/threads/${newId()}`), 404, 'message_not_found');
    expectError(await get(alice, `/api/v1/rooms/${roomId}/threads/${replies[0]}`), 404, 'message_not_found');
    const other = await newRoom(alice);
    const foreign = await post(alice, other, 'elsewhere');
    expectError(await get(alice, `/api/v1/rooms/${roomId}/threads/${foreign.id}`), 404, 'message_not_found');
    expectError(await get(alice, `/api/v1/rooms/${other}/threads/${root.id}`), 404, 'message_not_found');
  });
});

describe('topLevelOnly', () => {
  test("only messages outside threads; roots with replies carry the caller's thread object", async () => {
    const [alice, bob] = await accounts(2);
    const roomId = await newRoom(alice, [bob]);
    const lonely = await post(alice, roomId, 'no replies');
    const root = await post(alice, roomId, 'root');
    const b1 = await reply(bob, roomId, root.id, 'b1');
    const b2 = await reply(bob, roomId, root.id, 'b2');
    const after = await post(bob, roomId, 'after');
    const res = await get(alice, `/api/v1/rooms/${roomId}/messages?topLevelOnly=true`);
    expectOk(res);
    const items: Msg[] = res.body.data;
    expect(items.map((m) => m.id)).toEqual([lonely.id, root.id, after.id]);
    expect(items[0]!.thread).toBeUndefined();
    expect(items[2]!.thread).toBeUndefined();
    expect(items[1]!.thread).toEqual({
      replyCount: 2,
      lastReplyAt: b2.createdAt,
      lastReply: { id: b2.id, senderId: bob.id, text: 'b2', createdAt: b2.createdAt },
      unreadCount: 2,
      following: true,
    });
    // Another caller's view of the same root.
    await unfollow(bob, root.id);
    const bobs = await get(bob, `/api/v1/rooms/${roomId}/messages?topLevelOnly=true`);
    expect(bobs.body.data[1].thread).toMatchObject({ replyCount: 2, unreadCount: 0, following: false });
    // Without topLevelOnly the replies are in the scroll too; the root carries the same thread object, no reply does.
    const full = await get(alice, `/api/v1/rooms/${roomId}/messages`);
    expect(full.body.data.map((m: Msg) => m.id)).toEqual([lonely.id, root.id, b1.id, b2.id, after.id]);
    expect(full.body.data.filter((m: Msg) => 'thread' in m).map((m: Msg) => m.id)).toEqual([root.id]);
    expect(full.body.data[1].thread).toEqual(items[1]!.thread);
    // Cursors keep working on topLevelOnly pages.
    const older = await get(
      alice,
      `/api/v1/rooms/${roomId}/messages?topLevelOnly=true&limit=1&before=${encodeCursor({ s: await seqOf(after.id) }, historyList(roomId, true))}`,
    );
    expect(older.body.data.map((m: Msg) => m.id)).toEqual([root.id]);
    expect(older.body.data[0].thread.replyCount).toBe(2);
  });
});

describe('thread summaries in every message view', () => {
  const at = (who: TestAccount, method: string, path: string, body?: unknown) =>
    call(base, method, `/api/v1${path}`, { token: who.token, ...(body === undefined ? {} : { body }) });

  test("GET one, pins, the snap banner, saved cards, edit and recall answers carry the root's thread, from the caller's view", async () => {
    const [alice, bob] = await accounts(2);
    const roomId = await newRoom(alice, [bob]);
    const root = await post(alice, roomId, 'root');
    const lonely = await post(alice, roomId, 'no replies');
    await reply(bob, roomId, root.id, 'r1');
    const last = await reply(bob, roomId, root.id, 'r2');
    const expected = {
      replyCount: 2,
      lastReplyAt: last.createdAt,
      lastReply: { id: last.id, senderId: bob.id, text: 'r2', createdAt: last.createdAt },
      unreadCount: 2,
      following: true,
    };
    const one = await at(alice, 'GET', `/rooms/${roomId}/messages/${root.id}`);
    expectOk(one);
    expect(one.body.data.thread).toEqual(expected);
    // The replier's view: its own replies are not unread.
    expect((await at(bob, 'GET', `/rooms/${roomId}/messages/${root.id}`)).body.data.thread).toMatchObject({
      replyCount: 2,
      unreadCount: 0,
    });
    expect((await at(alice, 'GET', `/rooms/${roomId}/messages/${lonely.id}`)).body.data.thread).toBeUndefined();
    expect((await at(alice, 'GET', `/rooms/${roomId}/messages/${last.id}`)).body.data.thread).toBeUndefined();

    const pinned = await at(alice, 'POST', `/rooms/${roomId}/messages/${root.id}/pin`);
    expectOk(pinned);
    expect(pinned.body.data.message.thread).toEqual(expected);
    await at(alice, 'POST', `/rooms/${roomId}/messages/${lonely.id}/pin`);
    const pins = await at(alice, 'GET', `/rooms/${roomId}/pinned`);
    expect(pins.body.data.map((e: { message: Msg }) => [e.message.id, e.message.thread])).toEqual([
      [lonely.id, undefined],
      [root.id, expected],
    ]);
    expectOk(await at(alice, 'POST', `/rooms/${roomId}/messages/${root.id}/snap`));
    expect((await at(alice, 'GET', `/rooms/${roomId}/snap`)).body.data.thread).toEqual(expected);

    const saved = await at(alice, 'POST', '/me/saved', { roomId, messageId: root.id });
    expectOk(saved);
    expect(saved.body.data.message.thread).toEqual(expected);
    await at(alice, 'POST', '/me/saved', { roomId, messageId: last.id });
    const cards = await at(alice, 'GET', '/me/saved');
    expect(cards.body.data.map((c: { message: Msg }) => [c.message.id, c.message.thread])).toEqual([
      [last.id, undefined],
      [root.id, expected],
    ]);

    const edited = await at(alice, 'PATCH', `/rooms/${roomId}/messages/${root.id}`, { text: 'root, edited' });
    expectOk(edited);
    expect(edited.body.data.thread).toEqual(expected);
    const recalled = await at(alice, 'POST', `/rooms/${roomId}/messages/${root.id}/recall`);
    expectOk(recalled);
    expect(recalled.body.data).toMatchObject({ recalled: true, thread: expected });
    expect((await at(alice, 'POST', `/rooms/${roomId}/messages/${root.id}/recall`)).body.data.thread).toEqual(expected);
  });

  test('the threads of a page come from one statement for all its roots, and from none when it has no root with replies', async () => {
    const [alice, bob] = await accounts(2);
    const roomId = await newRoom(alice, [bob]);
    const roots: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await post(alice, roomId, `root ${i}`);
      roots.push(r.id);
      await reply(bob, roomId, r.id, `reply ${i}`);
    }
    const page = await get(alice, `/api/v1/rooms/${roomId}/messages`);
    expect(page.body.data.filter((m: Msg) => m.thread).map((m: Msg) => m.id)).toEqual(roots);
    // The scroll's helper, over the real database, counting its statements.
    const { rows } = await platform.db.query(
      `select ${messageColumns}, ${replyCountColumn()} from messages where room_id = $1 order by seq`,
      [roomId],
    );
    let statements = 0;
    const counting = {
      query: (text: string, values: unknown[]) => (statements++, platform.db.query(text, values)),
    } as unknown as Queryable;
    const views: MessageWithThread[] = rows.map(messageView);
    await attachThreadInfo(counting, alice.id, views, rootsWithReplies(rows));
    expect(statements).toBe(1);
    expect(views.filter((v) => v.thread).map((v) => v.id)).toEqual(roots);
    const replies = rows.filter((r) => r.thread_root_id !== null);
    await attachThreadInfo(counting, alice.id, replies.map(messageView), rootsWithReplies(replies));
    expect(statements).toBe(1);
  });
});

describe('query plans', () => {
  /** The plan PostgreSQL picks for the statement `run` sends, when a table scan is not an option, as in a large room. */
  async function plan(run: (db: Runner) => Promise<unknown>): Promise<string> {
    const client = await platform.db.connect();
    try {
      await client.query('begin');
      await client.query('set local enable_seqscan = off');
      // Only an index that yields the order saves the sort, as it does when the room is large.
      await client.query('set local enable_sort = off');
      let found = '';
      const explain = async (statement: string | { text: string; values?: unknown[] }, values?: unknown[]) => {
        const [text, parameters] = typeof statement === 'string' ? [statement, values] : [statement.text, statement.values];
        const { rows } = await client.query(`explain (format json) ${text}`, parameters);
        found = JSON.stringify(rows[0]['QUERY PLAN']);
        return { rows: [], rowCount: 0 };
      };
      await run({ query: explain } as unknown as Runner);
      return found;
    } finally {
      await client.query('rollback');
      client.release();
    }
  }

  test('thread pages scan messages_thread in order; the list reads messages_active_threads; the badge scans messages_thread', async () => {
    const [alice] = await accounts(1);
    for (const [forward, bound] of [
      [false, undefined],
      [false, 10],
      [true, 10],
    ] as const) {
      const p = await plan((db) => threadPage(db, forward, { root: newId(), caller: alice.id, limit: 51, bound, room: newId() }));
      expect(p).toContain('"Index Name":"messages_thread"');
      expect(p).not.toContain('"Node Type":"Sort"');
    }
    for (const after of [null, { at: new Date(), id: newId() }]) {
      const p = await plan((db) => threadList(db, alice.id, newId(), 21, after));
      expect(p).toContain('"Index Name":"messages_active_threads"');
    }
    const badgePlan = await plan((db) => unreadThreadCount(db, alice.id));
    expect(badgePlan).toContain('"Index Name":"messages_thread"');
  });
});
