// Chat cursors were accepted outside the list they came from (another room's history cursor, a room-list cursor on
// a thread list). A cursor now opens only its own list: anything else is 400 invalid_cursor.
import { expectError, expectOk } from '../../helpers/expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';

let platform: TestPlatform;
let alice: TestAccount;
let bob: TestAccount;
let roomA: string;
let roomB: string;

const get = (who: TestAccount, path: string) => call(platform.chatUrl, 'GET', `/api/v1${path}`, { token: who.token });
const post = (who: TestAccount, path: string, body: unknown) =>
  call(platform.chatUrl, 'POST', `/api/v1${path}`, { token: who.token, body });

async function room(name: string): Promise<string> {
  const res = await post(alice, '/rooms', { type: 'GROUP', name, memberIds: [bob.id] });
  expectOk(res, 201);
  return res.body.data.id;
}

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'] });
  const tenant = await platform.tenant();
  [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
  roomA = await room('A');
  roomB = await room('B');
  for (const r of [roomA, roomB]) for (let i = 0; i < 3; i++) expectOk(await post(alice, `/rooms/${r}/messages`, { text: `m${i}` }), 201);
  await room('C');
});
afterAll(async () => {
  await platform?.stop();
});

test('a history cursor pages its own room and view, and nothing else', async () => {
  const first = await get(alice, `/rooms/${roomA}/messages?limit=1`);
  const cursor = encodeURIComponent(first.body.meta.nextCursor);
  expectOk(await get(alice, `/rooms/${roomA}/messages?limit=1&before=${cursor}`));
  expectError(await get(alice, `/rooms/${roomB}/messages?limit=1&before=${cursor}`), 400, 'invalid_cursor', 'query.before');
  expectError(await get(alice, `/rooms/${roomB}/messages?limit=1&after=${cursor}`), 400, 'invalid_cursor', 'query.after');
  // The room's history is one list for every member.
  expectOk(await get(bob, `/rooms/${roomA}/messages?limit=1&before=${cursor}`));
  expectError(
    await get(alice, `/rooms/${roomA}/messages?limit=1&topLevelOnly=true&before=${cursor}`),
    400,
    'invalid_cursor',
    'query.before',
  );
});

test('a room-list cursor is refused by the thread list, the member list and another filter of the room list', async () => {
  const page = await get(alice, '/rooms?limit=1');
  expect(page.body.meta.hasMore).toBe(true);
  const cursor = encodeURIComponent(page.body.meta.nextCursor);
  expectOk(await get(alice, `/rooms?limit=1&cursor=${cursor}`));
  expectError(await get(alice, `/rooms/${roomA}/threads?cursor=${cursor}`), 400, 'invalid_cursor', 'query.cursor');
  expectError(await get(alice, `/rooms/${roomA}/members?cursor=${cursor}`), 400, 'invalid_cursor', 'query.cursor');
  expectError(await get(alice, `/rooms?limit=1&archived=true&cursor=${cursor}`), 400, 'invalid_cursor', 'query.cursor');
  expectError(await get(bob, `/rooms?limit=1&cursor=${cursor}`), 400, 'invalid_cursor', 'query.cursor');
});
