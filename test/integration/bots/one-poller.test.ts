// One poller per bot: a getUpdates that starts while another of the same bot is running ends the earlier one with
// Telegram's 409, so a second instance of a bot is noticed instead of both answering every update.
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { botCall, createBot, expectBotError, groupWith, resultOf, say, confirmJoined } from '../../helpers/bots.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

const conflict = 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running';

test('a second concurrent getUpdates ends the first with 409; the second receives the update', async () => {
  const tenant = await platform.tenant();
  const alice = await tenant.account();
  const bot = await createBot(platform, tenant);
  const other = await createBot(platform, tenant);
  const roomId = await groupWith(platform, alice, [bot.accountId, other.accountId]);
  await confirmJoined(platform, bot.token);
  await confirmJoined(platform, other.token);

  const first = botCall(platform, bot.token, 'getUpdates', { timeout: 20 });
  // Another bot's poll does not disturb it.
  const otherPoll = botCall(platform, other.token, 'getUpdates', { timeout: 20 });
  await new Promise((r) => setTimeout(r, 300));
  const started = Date.now();
  const second = botCall(platform, bot.token, 'getUpdates', { timeout: 20 });
  expectBotError(await first, 409, conflict);
  expect(Date.now() - started).toBeLessThan(5000);

  await say(platform, alice, roomId, `/start@${bot.username}`);
  const updates = resultOf(await second);
  expect(updates.map((u: any) => u.message.text)).toEqual([`/start@${bot.username}`]);

  await say(platform, alice, roomId, `/start@${other.username}`);
  expect(resultOf(await otherPoll).map((u: any) => u.message.text)).toEqual([`/start@${other.username}`]);
});

test('polls one after another never conflict', async () => {
  const tenant = await platform.tenant();
  const bot = await createBot(platform, tenant);
  for (let i = 0; i < 5; i++) expect(resultOf(await botCall(platform, bot.token, 'getUpdates', { timeout: i % 2 }))).toEqual([]);
});
