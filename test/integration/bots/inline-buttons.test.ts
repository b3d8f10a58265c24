// Inline buttons beyond callback_data and url: copy_text and the switch_inline_query kinds are kept, echoed in the
// Bot API's message and shown on the chat's message view; login_url, web_app, callback_game and pay are refused with
// the reason, and a refused keyboard changes nothing.
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { botCall, createBot, expectBotError, groupWith, resultOf, waitForMessage, confirmJoined } from '../../helpers/bots.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

async function scene() {
  const tenant = await platform.tenant();
  const alice = await tenant.account({ displayName: 'Alice' });
  const bot = await createBot(platform, tenant);
  const roomId = await groupWith(platform, alice, [bot.accountId]);
  await confirmJoined(platform, bot.token);
  return { alice, bot, roomId };
}

test('copy_text and switch_inline_query buttons are kept and shown to chat clients', async () => {
  const { alice, bot, roomId } = await scene();
  const chosen = { query: 'find', allow_user_chats: true };
  const keyboard = [
    [
      { text: 'Copy', copy_text: { text: 'ABC-123' } },
      { text: 'Share', switch_inline_query: 'look' },
    ],
    [
      { text: 'Here', switch_inline_query_current_chat: '' },
      { text: 'Choose', switch_inline_query_chosen_chat: chosen },
    ],
  ];
  const sent = resultOf(
    await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: 'buttons', reply_markup: { inline_keyboard: keyboard } }),
  );
  expect(sent.reply_markup).toEqual({ inline_keyboard: keyboard });

  const seen = await waitForMessage(platform, alice, roomId, (m) => m.text === 'buttons');
  expect(seen.inlineKeyboard).toEqual([
    [
      { text: 'Copy', copyText: 'ABC-123' },
      { text: 'Share', switchInlineQuery: 'look' },
    ],
    [
      { text: 'Here', switchInlineQueryCurrentChat: '' },
      { text: 'Choose', switchInlineQueryChosenChat: chosen },
    ],
  ]);

  // An edit replaces them, as in Telegram.
  const edited = resultOf(
    await botCall(platform, bot.token, 'editMessageText', {
      chat_id: roomId,
      message_id: sent.message_id,
      text: 'copied',
      reply_markup: { inline_keyboard: [[{ text: 'Again', copy_text: { text: 'XYZ' } }]] },
    }),
  );
  expect(edited.reply_markup).toEqual({ inline_keyboard: [[{ text: 'Again', copy_text: { text: 'XYZ' } }]] });
  const after = await waitForMessage(platform, alice, roomId, (m) => m.text === 'copied');
  expect(after.inlineKeyboard).toEqual([[{ text: 'Again', copyText: 'XYZ' }]]);
});

test('buttons of kinds the platform has not are refused with the reason, and change nothing', async () => {
  const { bot, roomId } = await scene();
  const messages = async () =>
    (await platform.db.query('select count(*)::int as n from messages where room_id = $1', [roomId])).rows[0].n as number;
  const before = await messages();
  const refused: Array<[Record<string, unknown>, string | RegExp]> = [
    [
      { login_url: { url: 'https://example.com/login' } },
      'Bad Request: button 0.0: login_url buttons are not supported: the platform has no Telegram Login',
    ],
    [
      { web_app: { url: 'https://example.com/app' } },
      'Bad Request: button 0.0: web_app buttons are not supported: the platform has no Web Apps',
    ],
    [{ callback_game: {} }, 'Bad Request: button 0.0: callback_game buttons are not supported: the platform has no games'],
    [{ pay: true }, 'Bad Request: button 0.0: pay buttons are not supported: the platform has no payments'],
    [{ copy_text: { text: 'a' }, url: 'https://example.com' }, /exactly one of callback_data, url, copy_text/],
    [{ switch_inline_query: 'a', switch_inline_query_current_chat: 'b' }, /exactly one of/],
    [{ copy_text: 'plain' }, 'Bad Request: copy_text of button 0.0 must be an object with a text of 1 to 256 characters'],
    [{ copy_text: { text: '' } }, 'Bad Request: copy_text of button 0.0 must be an object with a text of 1 to 256 characters'],
    [{ copy_text: { text: 'x'.repeat(257) } }, 'Bad Request: copy_text of button 0.0 must be an object with a text of 1 to 256 characters'],
    [{ switch_inline_query: 5 }, 'Bad Request: switch_inline_query of button 0.0 must be a string'],
    [{ switch_inline_query_chosen_chat: 'x' }, 'Bad Request: switch_inline_query_chosen_chat of button 0.0 must be an object'],
  ];
  for (const [button, description] of refused) {
    const res = await botCall(platform, bot.token, 'sendMessage', {
      chat_id: roomId,
      text: 'x',
      reply_markup: { inline_keyboard: [[{ text: 'B', ...button }]] },
    });
    expectBotError(res, 400, description);
  }
  expect(await messages()).toBe(before);
});
