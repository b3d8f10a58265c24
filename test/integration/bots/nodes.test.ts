// Long polls on one node are released by updates made on another: the bot polls node A (no relay there), the user
// sends through node B, whose outbox relay makes the update and wakes A through Redis.
import { connectRedis } from '../../../src/platform/redis.js';
import { UpdateWaiters } from '../../../src/chat/bots/updates/waiters.js';
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { botCall, createBot, groupWith, resultOf, say, confirmJoined } from '../../helpers/bots.js';

let a: TestPlatform;
let b: TestPlatform;
beforeAll(async () => {
  [a, b] = await Promise.all([startTestPlatform({ services: ['chat'] }), startTestPlatform({ services: ['chat', 'workers'] })]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

test('a getUpdates waiting on node A returns the message sent through node B', async () => {
  const tenant = await b.tenant();
  const alice = await tenant.account();
  const bot = await createBot(b, tenant);
  const roomId = await groupWith(b, alice, [bot.accountId]);
  await confirmJoined(b, bot.token);
  const poll = botCall(a, bot.token, 'getUpdates', { timeout: 20 });
  await new Promise((r) => setTimeout(r, 300));
  await say(b, alice, roomId, '/hello from B');
  const updates = resultOf(await poll);
  expect(updates.map((u: any) => u.message.text)).toEqual(['/hello from B']);
});

test('a wake published by one node ends a wait on another (not the periodic re-read)', async () => {
  const [pub1, sub1, pub2] = [connectRedis(a.redisUrl, 't1'), connectRedis(a.redisUrl, 't2'), connectRedis(a.redisUrl, 't3')];
  const here = new UpdateWaiters(pub1);
  const elsewhere = new UpdateWaiters(pub2);
  const stop = await here.listen(sub1);
  try {
    const waiter = here.register('bot-1');
    const other = here.register('bot-2');
    const ended = waiter.until(60_000);
    await elsewhere.notify(['bot-1']);
    // until() re-reads at least every two seconds; 'woken' says the wake-up itself ended the wait.
    expect(await ended).toBe('woken');
    other.interrupt();
    expect(await other.until(60_000)).toBe('closed');
    waiter.cancel();
    other.cancel();
    expect(here.size).toBe(0);
  } finally {
    await stop();
    for (const c of [pub1, sub1, pub2]) c.disconnect();
  }
});
