// setMessageReaction over the chat's reactions: what members see through the chat API, the replacement of the bot's
// earlier reaction, and Telegram's refusals (which change nothing).
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { count } from '../../helpers/expect.js';
import { botCall, botInGroup, expectBotError, resultOf, say } from '../../helpers/bots.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

async function reactionsSeenBy(who: TestAccount, roomId: string, messageId: string): Promise<unknown> {
  const res = await call(platform.chatUrl, 'GET', `/api/v1/rooms/${roomId}/messages/${messageId}/reactions`, { token: who.token });
  expect(res.status).toBe(200);
  return res.body.data;
}

const emoji = (e: string) => [{ type: 'emoji', emoji: e }];

test("the bot's reaction is the room's reaction; a new one replaces it and an empty list removes it", async () => {
  const { alice, bob, bot, roomId, chatId } = await botInGroup(platform);
  const said = await say(platform, alice, roomId, 'hello bot');
  await call(platform.chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages/${said.id}/reactions`, {
    token: bob.token,
    body: { emoji: '👍' },
  });
  const messageId = 1;

  expect(
    resultOf(await botCall(platform, bot.token, 'setMessageReaction', { chat_id: chatId, message_id: messageId, reaction: emoji('👍') })),
  ).toBe(true);
  expect(await reactionsSeenBy(alice, roomId, said.id)).toEqual([{ emoji: '👍', count: 2, reactedByMe: false }]);

  resultOf(await botCall(platform, bot.token, 'setMessageReaction', { chat_id: chatId, message_id: messageId, reaction: emoji('🔥') }));
  expect(await reactionsSeenBy(alice, roomId, said.id)).toEqual([
    { emoji: '👍', count: 1, reactedByMe: false },
    { emoji: '🔥', count: 1, reactedByMe: false },
  ]);
  expect(
    await count(platform.db, "select count(*) as n from outbox where topic = 'reaction.added' and payload->>'messageId' = $1", [said.id]),
  ).toBe(3);
  expect(
    await count(platform.db, "select count(*) as n from outbox where topic = 'reaction.removed' and payload->>'messageId' = $1", [said.id]),
  ).toBe(1);

  // Telegram's form encoding: the list as JSON text; an empty list takes the bot's reaction away.
  const form = new URLSearchParams({ chat_id: String(chatId), message_id: String(messageId), reaction: '[]' });
  const res = await fetch(`${platform.chatUrl}/bot${bot.token}/setMessageReaction`, { method: 'POST', body: form });
  expect(await res.json()).toEqual({ ok: true, result: true });
  expect(await reactionsSeenBy(alice, roomId, said.id)).toEqual([{ emoji: '👍', count: 1, reactedByMe: false }]);
});

test("refusals in Telegram's words change nothing", async () => {
  const { alice, bot, roomId, chatId } = await botInGroup(platform);
  const said = await say(platform, alice, roomId, 'react to me');
  resultOf(await botCall(platform, bot.token, 'setMessageReaction', { chat_id: chatId, message_id: 1, reaction: emoji('👀') }));
  const rowsOf = async () =>
    (await platform.db.query('select emoji, account_id from message_reactions where message_id = $1 order by emoji', [said.id])).rows;
  const before = await rowsOf();
  const events = () =>
    count(platform.db, "select count(*) as n from outbox where topic like 'reaction.%' and payload->>'messageId' = $1", [said.id]);
  const eventsBefore = await events();

  const cases: Array<[Record<string, unknown>, string | RegExp]> = [
    [{ chat_id: chatId, message_id: 1, reaction: [...emoji('👍'), ...emoji('🔥')] }, /body\.reaction/],
    [
      { chat_id: chatId, message_id: 1, reaction: [{ type: 'custom_emoji', custom_emoji_id: '5368324170671202286' }] },
      /body\.reaction\.0\.type/,
    ],
    [{ chat_id: chatId, message_id: 1, reaction: [{ type: 'paid' }] }, /body\.reaction\.0\.type/],
    [{ chat_id: chatId, message_id: 1, reaction: [{ type: 'emoji' }] }, /body\.reaction\.0\.emoji is required/],
    [{ chat_id: chatId, message_id: 1, reaction: emoji('two words') }, /emoji/],
    [{ chat_id: chatId, message_id: 1, reaction: [{ type: 'sticker', emoji: '👍' }] }, /type/],
    [{ chat_id: chatId, message_id: 1, reaction: 'no' }, /reaction/],
    [{ chat_id: chatId, message_id: 99, reaction: emoji('👍') }, 'Bad Request: message to react not found'],
    [{ chat_id: chatId, reaction: emoji('👍') }, 'Bad Request: body.message_id is required'],
    [{ chat_id: 424242, message_id: 1, reaction: emoji('👍') }, 'Bad Request: chat not found'],
  ];
  for (const [params, description] of cases) {
    expectBotError(await botCall(platform, bot.token, 'setMessageReaction', params), 400, description);
  }
  expect(await rowsOf()).toEqual(before);
  expect(before).toEqual([{ emoji: '👀', account_id: bot.accountId }]);
  expect(await events()).toBe(eventsBefore);
});
