// The chat seed's defaults, each asserted at its default (no limit or timeout sent): "rooms list limit 50", "thread
// reply page limit 50", "getUpdates limit 100 with timeout 0", and the actor parameter every operation declares,
// which never changes who acts.
import { performance } from 'node:perf_hooks';
import { botCall, createBot, privateRoomWith, resultOf } from '../../helpers/bots.js';
import { count, eventually, expectOk } from '../../helpers/expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';

let platform: TestPlatform;
let alice: TestAccount;
let bob: TestAccount;

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
  const tenant = await platform.tenant();
  [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
});
afterAll(async () => {
  await platform?.stop();
});

async function send(who: TestAccount, roomId: string, body: Record<string, unknown>, query = ''): Promise<any> {
  const res = await call(platform.chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages${query}`, { token: who.token, body });
  expectOk(res, 201);
  return res.body.data;
}

async function group(name: string): Promise<string> {
  const res = await call(platform.chatUrl, 'POST', '/api/v1/rooms', {
    token: alice.token,
    body: { type: 'GROUP', name, memberIds: [bob.id] },
  });
  expectOk(res, 201);
  return res.body.data.id;
}

test('the room list answers 50 rooms when no limit is sent', async () => {
  const owner = await (await platform.tenant()).account();
  for (let i = 0; i < 51; i++) {
    expectOk(
      await call(platform.chatUrl, 'POST', '/api/v1/rooms', { token: owner.token, body: { type: 'GROUP', name: `Room ${i}` } }),
      201,
    );
  }
  const page = await call(platform.chatUrl, 'GET', '/api/v1/rooms', { token: owner.token });
  expectOk(page);
  expect(page.body.data).toHaveLength(50);
  expect(page.body.meta.hasMore).toBe(true);
});

test('a thread answers 50 replies when no limit is sent', async () => {
  const roomId = await group('Thread');
  const root = await send(alice, roomId, { text: 'root' });
  for (let i = 0; i < 51; i++) await send(bob, roomId, { text: `reply ${i}`, threadRootId: root.id });
  const page = await call(platform.chatUrl, 'GET', `/api/v1/rooms/${roomId}/threads/${root.id}`, { token: alice.token });
  expectOk(page);
  expect(page.body.data).toHaveLength(50);
  expect(page.body.meta.hasMore).toBe(true);
});

test('getUpdates without limit and timeout answers 100 pending updates at once, and an empty list at once', async () => {
  const tenant = await platform.tenant();
  const who = await tenant.account();
  const bot = await createBot(platform, tenant);
  const roomId = await privateRoomWith(platform, who, bot.accountId);
  for (let i = 0; i < 101; i++) await send(who, roomId, { text: `update ${i}` });
  await eventually(
    async () => (await count(platform.db, 'select count(*) as n from bot_updates where bot_id = $1', [bot.id])) >= 101,
    30_000,
  );

  const first = resultOf(await botCall(platform, bot.token, 'getUpdates'));
  expect(first).toHaveLength(100);
  const last = resultOf(await botCall(platform, bot.token, 'getUpdates', undefined, { query: `offset=${first.at(-1).update_id + 1}` }));
  expect(last).toHaveLength(1);

  // Everything confirmed: with timeout 0 the answer does not wait for the next update.
  resultOf(await botCall(platform, bot.token, 'getUpdates', undefined, { query: `offset=${last[0].update_id + 1}` }));
  const started = performance.now();
  expect(resultOf(await botCall(platform, bot.token, 'getUpdates'))).toEqual([]);
  expect(performance.now() - started).toBeLessThan(1_000);
});

test('actor set to another account changes nothing: the token decides who sends and whose rooms are listed', async () => {
  const roomId = await group('Actor');
  const outsider = await (await platform.tenant()).account();
  const sent = await send(alice, roomId, { text: 'mine' }, `?actor=${bob.id}`);
  expect(sent.senderId).toBe(alice.id);
  const stored = await platform.db.query('select sender_id from messages where id = $1', [sent.id]);
  expect(stored.rows[0].sender_id).toBe(alice.id);

  const asOutsider = await call(platform.chatUrl, 'GET', `/api/v1/rooms?actor=${alice.id}`, { token: outsider.token });
  expectOk(asOutsider);
  expect(asOutsider.body.data).toEqual([]);
  const read = await call(platform.chatUrl, 'GET', `/api/v1/rooms/${roomId}/messages?actor=${alice.id}`, { token: outsider.token });
  expect(read.status).toBe(404);
});
