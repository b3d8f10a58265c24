// Every request that creates messages spends the sender's allowance, not only sendMessage: a forward spends one per
// message it copies, a poll one. With a limit of 4 a minute, once the allowance is spent a forward and a poll are
// refused with 429 rate_limited and create nothing; a forward of more messages than the allowance left is refused whole.
import { ManualClock } from '../../../src/platform/clock.js';
import { count, expectError, expectOk } from '../../helpers/expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';

// 20 s into a minute, so the window cannot roll over during the test.
const start = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 20_000);
const clock = new ManualClock(start);
let platform: TestPlatform;
let alice: TestAccount;
let bob: TestAccount;
let carol: TestAccount;
let roomId: string;
let messageIds: string[];

beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat'], sendRateLimitPerMinute: 4 }, clock);
  const tenant = await platform.tenant();
  [alice, bob, carol] = await Promise.all([tenant.account(), tenant.account(), tenant.account()]);
  const room = await call(platform.chatUrl, 'POST', '/api/v1/rooms', {
    token: alice.token,
    body: { type: 'GROUP', name: 'Forwarded', memberIds: [bob.id, carol.id] },
  });
  expectOk(room, 201);
  roomId = room.body.data.id;
  messageIds = [];
  for (const text of ['one', 'two', 'three']) {
    const sent = await call(platform.chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages`, { token: alice.token, body: { text } });
    expectOk(sent, 201);
    messageIds.push(sent.body.data.id);
  }
});
afterAll(async () => {
  await platform?.stop();
});

const forward = (who: TestAccount, ids: string[]) =>
  call(platform.chatUrl, 'POST', `/api/v1/rooms/${roomId}/forward`, { token: who.token, body: { fromRoomId: roomId, messageIds: ids } });
const poll = (who: TestAccount) =>
  call(platform.chatUrl, 'POST', `/api/v1/rooms/${roomId}/polls`, {
    token: who.token,
    body: { question: 'Lunch?', options: ['Yes', 'No'] },
  });
const createdBy = (who: TestAccount) =>
  count(platform.db, 'select count(*) as n from messages where room_id = $1 and sender_id = $2', [roomId, who.id]);

test('a forward spends one unit per message and a poll one; past the allowance both are 429 and create nothing', async () => {
  expectOk(await forward(bob, messageIds));
  expectOk(await poll(bob), 201);
  expect(await createdBy(bob)).toBe(4);

  expectError(await forward(bob, messageIds.slice(0, 1)), 429, 'rate_limited', 'header.authorization');
  expectError(await poll(bob), 429, 'rate_limited', 'header.authorization');
  const sent = await call(platform.chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages`, { token: bob.token, body: { text: 'more' } });
  expectError(sent, 429, 'rate_limited', 'header.authorization');
  expect(await createdBy(bob)).toBe(4);
});

test('a forward of more messages than the allowance holds is refused whole', async () => {
  expectOk(await poll(carol), 201);
  expectOk(await forward(carol, messageIds.slice(0, 2)));
  expectError(await forward(carol, messageIds.slice(0, 2)), 429, 'rate_limited', 'header.authorization');
  expect(await createdBy(carol)).toBe(3);
});
