// Per-bot send limits (429 with retry_after, as Telegram answers), the long-poll cap, and the 24-hour life of
// updates and button presses, with the clock moved instead of waited for.
import { SignJWT } from 'jose';
import { ManualClock } from '../../../src/platform/clock.js';
import { pruneBotUpdates } from '../../../src/chat/bots/updates/prune.js';
import { call, isolatedInfra, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { count } from '../../helpers/expect.js';
import { botCall, createBot, expectBotError, groupWith, pendingUpdates, resultOf, say, confirmJoined } from '../../helpers/bots.js';
import { botWithAlice, bytes, multipart, ownDataDir } from './file-helpers.js';

const clock = new ManualClock(new Date());
let platform: TestPlatform;
let infra: Awaited<ReturnType<typeof isolatedInfra>>;
beforeAll(async () => {
  // A database of its own: pruning at a clock moved a day ahead would remove every other test file's updates.
  infra = await isolatedInfra();
  platform = await startTestPlatform(
    {
      services: ['chat', 'workers'],
      databaseUrl: infra.databaseUrl,
      redisUrl: infra.redisUrl,
      botSendRatePerSecond: 2,
      botLongPollMaxSeconds: 1,
      dataDir: ownDataDir(),
    },
    clock,
  );
});
afterAll(async () => {
  await platform?.stop();
  await infra?.drop();
});

test('over its allowance a bot gets 429 with retry_after, nothing is written, and the next window admits it', async () => {
  const tenant = await platform.tenant();
  const alice = await tenant.account();
  const bot = await createBot(platform, tenant);
  const roomId = await groupWith(platform, alice, [bot.accountId]);
  await confirmJoined(platform, bot.token);
  // Start at the beginning of a window, so the two sends below share it.
  clock.set(new Date(Math.ceil(clock.now().getTime() / 1000) * 1000));
  resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: 'one' }));
  resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: 'two' }));
  const refused = await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: 'three' });
  expectBotError(refused, 429, 'Too Many Requests: retry after 1');
  expect(refused.body.parameters).toEqual({ retry_after: 1 });
  expect(refused.headers.get('retry-after')).toBe('1');
  expectBotError(await botCall(platform, bot.token, 'editMessageText', { chat_id: roomId, message_id: 1, text: 'edited' }), 429);
  expect(await count(platform.db, 'select count(*) as n from messages where room_id = $1', [roomId])).toBe(2);
  expect(await count(platform.db, 'select count(*) as n from messages where room_id = $1 and edited_at is not null', [roomId])).toBe(0);
  // Reading is not limited.
  resultOf(await botCall(platform, bot.token, 'getMe'));
  clock.advance(1000);
  resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: 'three' }));
});

test('every method that writes messages spends the allowance; an album counts as its messages, refused whole', async () => {
  const { bot, roomId } = await botWithAlice(platform);
  const messages = () => count(platform.db, 'select count(*) as n from messages where room_id = $1', [roomId]);
  clock.set(new Date(Math.ceil(clock.now().getTime() / 1000) * 1000 + 1000));
  const doc = resultOf(
    await multipart(platform, bot.token, 'sendDocument', { chat_id: roomId, document: { data: bytes(64), name: 'a.txt' } }),
  );
  const fileId = doc.document.file_id;
  const album = {
    chat_id: roomId,
    media: [
      { type: 'document', media: fileId },
      { type: 'document', media: fileId },
    ],
  };
  // One write is left of two: an album of two does not fit and sends none of its messages.
  expectBotError(await botCall(platform, bot.token, 'sendMediaGroup', album), 429, 'Too Many Requests: retry after 1');
  expect(await messages()).toBe(1);
  resultOf(await botCall(platform, bot.token, 'sendPoll', { chat_id: roomId, question: 'Lunch?', options: ['Soup', 'Salad'] }));
  const refusals = await Promise.all([
    botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: 'more' }),
    botCall(platform, bot.token, 'sendPoll', { chat_id: roomId, question: 'Dinner?', options: ['Fish', 'Rice'] }),
    botCall(platform, bot.token, 'sendDocument', { chat_id: roomId, document: fileId }),
    botCall(platform, bot.token, 'forwardMessage', { chat_id: roomId, from_chat_id: roomId, message_id: doc.message_id }),
    botCall(platform, bot.token, 'copyMessage', { chat_id: roomId, from_chat_id: roomId, message_id: doc.message_id }),
    botCall(platform, bot.token, 'sendMediaGroup', album),
  ]);
  for (const refused of refusals) expectBotError(refused, 429);
  expect(await messages()).toBe(2);
  clock.advance(1000);
  expect(resultOf(await botCall(platform, bot.token, 'sendMediaGroup', album))).toHaveLength(2);
  expect(await messages()).toBe(4);
});

test('a timeout beyond BOT_LONG_POLL_MAX_SECONDS is cut to it', async () => {
  const tenant = await platform.tenant();
  const bot = await createBot(platform, tenant);
  expect(resultOf(await botCall(platform, bot.token, 'getUpdates', { timeout: 3600 }))).toEqual([]);
});

test('updates and presses older than 24 hours are pruned; a press that old can no longer be answered', async () => {
  const tenant = await platform.tenant();
  const alice = await tenant.account();
  const bot = await createBot(platform, tenant);
  const roomId = await groupWith(platform, alice, [bot.accountId]);
  await confirmJoined(platform, bot.token);
  clock.advance(1000);
  const sent = resultOf(
    await botCall(platform, bot.token, 'sendMessage', {
      chat_id: roomId,
      text: 'Pick',
      reply_markup: { inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] },
    }),
  );
  const messageId = (await platform.db.query('select id from messages where room_id = $1 and seq = $2', [roomId, sent.message_id])).rows[0]
    .id;
  const press = await call(platform.chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages/${messageId}/callback`, {
    token: alice.token,
    body: { data: 'a' },
  });
  expect(press.status).toBe(200);
  await say(platform, alice, roomId, '/old');
  expect(await pendingUpdates(platform, bot.token, 2)).toHaveLength(2);
  const made = clock.now();

  clock.advance(24 * 3_600_000 + 1000);
  expectBotError(
    await botCall(platform, bot.token, 'answerCallbackQuery', { callback_query_id: press.body.data.callbackQueryId }),
    400,
    /query is too old/,
  );
  // A token issued at the server's (moved) time.
  const at = Math.floor(clock.now().getTime() / 1000);
  const token = await new SignJWT({ cid: tenant.customer })
    .setProtectedHeader({ alg: 'ES256', kid: tenant.kid })
    .setIssuer(tenant.moduleCode)
    .setSubject(alice.id)
    .setAudience(platform.config.jwtAudience)
    .setIssuedAt(at)
    .setExpirationTime(at + 3600)
    .sign(tenant.privateKey);
  await say(platform, { id: alice.id, token }, roomId, '/new');
  expect(await pendingUpdates(platform, bot.token, 3)).toHaveLength(3);
  const pruned = await pruneBotUpdates(platform.db as never, clock.now());
  expect(pruned).toBeGreaterThanOrEqual(3);
  const left = resultOf(await botCall(platform, bot.token, 'getUpdates', {}));
  expect(left.map((u: any) => u.message?.text)).toEqual(['/new']);
  expect(await count(platform.db, 'select count(*) as n from bot_callback_queries where id = $1', [press.body.data.callbackQueryId])).toBe(
    0,
  );
  expect(made.getTime()).toBeLessThan(clock.now().getTime());
});
