// The send allowance is per account and shared by every node through Redis: with a limit of 3 a minute, sends
// spread over two nodes are refused from the fourth with 429 rate_limited, Retry-After and nothing stored.
import { ManualClock } from '../../../src/platform/clock.js';
import { count, expectError, expectOk } from '../../helpers/expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';

// 20 s into a minute, so the window cannot roll over during the test and Retry-After is known.
const start = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 20_000);
const clock = new ManualClock(start);
let nodeA: TestPlatform;
let nodeB: TestPlatform;
let alice: TestAccount;
let bob: TestAccount;
let roomId: string;

beforeAll(async () => {
  [nodeA, nodeB] = await Promise.all([
    startTestPlatform({ services: ['chat'], sendRateLimitPerMinute: 3 }, clock),
    startTestPlatform({ services: ['chat'], sendRateLimitPerMinute: 3 }, clock),
  ]);
  const tenant = await nodeA.tenant();
  [alice, bob] = await Promise.all([tenant.account(), tenant.account()]);
  const room = await call(nodeA.chatUrl, 'POST', '/api/v1/rooms', {
    token: alice.token,
    body: { type: 'GROUP', name: 'Busy', memberIds: [bob.id] },
  });
  expectOk(room, 201);
  roomId = room.body.data.id;
});
afterAll(async () => {
  await Promise.all([nodeA?.stop(), nodeB?.stop()]);
});

const send = (node: TestPlatform, who: TestAccount, text: string) =>
  call(node.chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages`, { token: who.token, body: { text } });
const sentBy = (who: TestAccount) =>
  count(nodeA.db, 'select count(*) as n from messages where room_id = $1 and sender_id = $2', [roomId, who.id]);

test('the fourth send within a minute, on either node, is 429 with Retry-After; other accounts are not affected', async () => {
  expectOk(await send(nodeA, alice, 'one'), 201);
  expectOk(await send(nodeB, alice, 'two'), 201);
  expectOk(await send(nodeA, alice, 'three'), 201);

  for (const node of [nodeB, nodeA]) {
    const res = await send(node, alice, 'too many');
    expectError(res, 429, 'rate_limited', 'header.authorization');
    expect(res.headers.get('retry-after')).toBe('40');
    expect(res.body.error.message).toBe('More than 3 messages per minute from this account; retry in 40 s.');
  }
  expect(await sentBy(alice)).toBe(3);

  expectOk(await send(nodeB, bob, 'bob is fine'), 201);
  // Reading is not limited.
  expectOk(await call(nodeB.chatUrl, 'GET', `/api/v1/rooms/${roomId}/messages`, { token: alice.token }));
});

test('the next minute brings a new allowance', async () => {
  clock.set(new Date(start.getTime() + 60_000));
  expectOk(await send(nodeB, alice, 'four'), 201);
  expect(await sentBy(alice)).toBe(4);
});
