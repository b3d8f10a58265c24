// The Bot API's ids are Telegram's: integers below 2^53, stable, negative for groups; tokens are
// "<bot id>:<secret>"; chat_id takes the integer chat id, a user's id (their private room with the bot) or the
// room uuid; tokens issued in the earlier shape keep working until regenerated.
import { createHash, randomBytes } from 'node:crypto';
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import {
  botCall,
  chatNumber,
  createBot,
  expectBotError,
  groupWith,
  pendingUpdates,
  privateRoomWith,
  resultOf,
  say,
  userNumber,
  confirmJoined,
} from '../../helpers/bots.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

test('getMe, updates and sent messages carry integer ids; the token starts with the bot id', async () => {
  const tenant = await platform.tenant();
  const alice = await tenant.account({ displayName: 'Alice' });
  const bot = await createBot(platform, tenant);
  expect(bot.token).toMatch(/^\d+:[A-Za-z0-9_-]{35,}$/);
  const me = resultOf(await botCall(platform, bot.token, 'getMe'));
  expect(me.id).toBe(await userNumber(platform, bot.accountId));
  expect(bot.token.split(':')[0]).toBe(String(me.id));
  expect(Number.isSafeInteger(me.id)).toBe(true);

  const group = await groupWith(platform, alice, [bot.accountId]);
  await confirmJoined(platform, bot.token);
  const direct = await privateRoomWith(platform, alice, bot.accountId);
  await say(platform, alice, group, `/start@${bot.username}`);
  await say(platform, alice, direct, 'hello');
  const updates = await pendingUpdates(platform, bot.token, 2);
  const aliceId = await userNumber(platform, alice.id);
  const groupChat = updates.find((u) => u.message.chat.type === 'group').message.chat;
  const privateChat = updates.find((u) => u.message.chat.type === 'private').message.chat;
  expect(groupChat.id).toBe(await chatNumber(platform, group));
  expect(groupChat.id).toBeLessThan(0);
  expect(privateChat.id).toBe(await chatNumber(platform, direct));
  expect(privateChat.id).toBeGreaterThan(0);
  for (const u of updates) {
    expect(u.message.from.id).toBe(aliceId);
    expect(Number.isSafeInteger(u.update_id)).toBe(true);
    expect(Number.isSafeInteger(u.message.date)).toBe(true);
  }

  // chat_id as the integer chat id, as a string of digits (form bodies), as a user's id, and as the room uuid.
  const inGroup = resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: groupChat.id, text: 'to the group' }));
  expect(inGroup.chat).toEqual({ id: groupChat.id, type: 'group', title: 'Bots' });
  expect(inGroup.from.id).toBe(me.id);
  const byForm = await fetch(`${platform.chatUrl}/bot${bot.token}/sendMessage`, {
    method: 'POST',
    body: new URLSearchParams({ chat_id: String(privateChat.id), text: 'by form' }),
  });
  expect(((await byForm.json()) as any).result.chat.id).toBe(privateChat.id);
  const byUser = resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: aliceId, text: 'to alice' }));
  expect(byUser.chat.id).toBe(privateChat.id);
  const byUuid = resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: group, text: 'by uuid' }));
  expect(byUuid.chat.id).toBe(groupChat.id);
  const edited = resultOf(
    await botCall(platform, bot.token, 'editMessageText', { chat_id: groupChat.id, message_id: inGroup.message_id, text: 'edited' }),
  );
  expect(edited.text).toBe('edited');
  expect(
    resultOf(await botCall(platform, bot.token, 'deleteMessage', { chat_id: String(groupChat.id), message_id: inGroup.message_id })),
  ).toBe(true);

  // The sign matters: a group's number made positive is no chat, nor is a private room's made negative.
  expectBotError(
    await botCall(platform, bot.token, 'sendMessage', { chat_id: -groupChat.id, text: 'x' }),
    400,
    'Bad Request: chat not found',
  );
  expectBotError(
    await botCall(platform, bot.token, 'sendMessage', { chat_id: -privateChat.id, text: 'x' }),
    400,
    'Bad Request: chat not found',
  );
  // Another account's id with whom the bot shares no private room is no chat either.
  const bob = await tenant.account();
  expectBotError(
    await botCall(platform, bot.token, 'sendMessage', { chat_id: await userNumber(platform, bob.id), text: 'x' }),
    400,
    'Bad Request: chat not found',
  );
});

test('a token of the right shape that is unknown, regenerated or deleted is 401; an old-shaped token works until regenerated', async () => {
  const tenant = await platform.tenant();
  const admin = await platform.adminToken();
  const bot = await createBot(platform, tenant);
  const id = bot.token.split(':')[0];
  expectBotError(
    await botCall(platform, `${id}:${randomBytes(32).toString('base64url')}`, 'getMe', undefined, { telegram: true }),
    401,
    'Unauthorized',
  );

  // A token issued before the integer ids: "<bot uuid without dashes>:<secret>", stored as its hash.
  const legacy = `${bot.id.replace(/-/g, '')}:${randomBytes(32).toString('base64url')}`;
  await platform.db.query('update bots set token_hash = $2 where id = $1', [bot.id, createHash('sha256').update(legacy).digest()]);
  expect(resultOf(await botCall(platform, legacy, 'getMe', undefined, { telegram: true })).username).toBe(bot.username);
  const regenerated = await call(platform.chatUrl, 'POST', `/api/v1/bots/${bot.id}/regenerate-token`, { token: admin });
  expect(regenerated.status).toBe(200);
  const token: string = regenerated.body.data.token;
  expect(token.split(':')[0]).toBe(id);
  expectBotError(await botCall(platform, legacy, 'getMe'), 401, 'Unauthorized');
  expect(resultOf(await botCall(platform, token, 'getMe')).id).toBe(Number(id));

  expect((await call(platform.chatUrl, 'DELETE', `/api/v1/bots/${bot.id}`, { token: admin })).status).toBe(200);
  expectBotError(await botCall(platform, token, 'getMe'), 401, 'Unauthorized');
});
