// A Telegraf bot, written as Telegraf's documentation writes one and changed only in its API root, runs against
// the real chat listener over long polling: it echoes a user's message, answers /start with an inline keyboard,
// and handles the button press (answerCbQuery, editMessageText).
import { Markup, Telegraf } from 'telegraf';
import { message } from 'telegraf/filters';
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { botCall, createBot, privateRoomWith, resultOf, say, waitForEvent, waitForMessage } from '../../helpers/bots.js';
import { withFields } from '../../helpers/match.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

/** The bot under test: nothing in it knows it is not talking to Telegram, except apiRoot. */
function echoBot(token: string, apiRoot: string, errors: unknown[]): Telegraf {
  const bot = new Telegraf(token, { telegram: { apiRoot } });
  bot.start((ctx) => ctx.reply('Welcome! Press the button.', Markup.inlineKeyboard([Markup.button.callback('Press me', 'pressed')])));
  bot.action('pressed', async (ctx) => {
    await ctx.answerCbQuery('You pressed it');
    await ctx.editMessageText(`Pressed by ${ctx.from.first_name}`);
  });
  bot.on(message('text'), (ctx) => ctx.reply(`echo: ${ctx.message.text}`));
  bot.catch((err) => {
    errors.push(err);
  });
  return bot;
}

test('echoes a message, answers /start with a keyboard and handles the press', async () => {
  const tenant = await platform.tenant();
  const alice = await tenant.account({ displayName: 'Alice' });
  const made = await createBot(platform, tenant);
  const roomId = await privateRoomWith(platform, alice, made.accountId);
  const errors: unknown[] = [];
  const bot = echoBot(made.token, platform.chatUrl, errors);
  let launched!: () => void;
  const ready = new Promise<void>((resolve) => (launched = resolve));
  const loop = bot.launch(() => launched());
  await Promise.race([ready, loop]);
  // launch() resolves when polling ends; it reports getMe first, then deletes the webhook and polls.
  try {
    await say(platform, alice, roomId, 'hello bot');
    await waitForMessage(platform, alice, roomId, withFields({ senderId: made.accountId, text: 'echo: hello bot' }));
    expect(bot.botInfo?.username).toBe(made.username);

    await say(platform, alice, roomId, '/start');
    const welcome = await waitForMessage(
      platform,
      alice,
      roomId,
      withFields({ senderId: made.accountId, text: 'Welcome! Press the button.' }),
    );
    // Telegraf's buttons carry hide: false; only text and callback_data are kept.
    expect(welcome.inlineKeyboard).toEqual([[{ text: 'Press me', callbackData: 'pressed' }]]);

    const press = await call(platform.chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages/${welcome.id}/callback`, {
      token: alice.token,
      body: { data: 'pressed' },
    });
    expect(press.status).toBe(200);
    const answered = await waitForEvent(platform, 'bot.callback_answered', { callbackQueryId: press.body.data.callbackQueryId });
    expect(answered).toMatchObject({ text: 'You pressed it', roomId, audience: { kind: 'accounts', accountIds: [alice.id] } });
    await waitForMessage(platform, alice, roomId, withFields({ id: welcome.id, text: 'Pressed by Alice' }));
  } finally {
    bot.stop('test over');
    await loop;
  }
  expect(errors).toEqual([]);
  // Telegraf confirms the handled updates when it stops.
  expect(resultOf(await botCall(platform, made.token, 'getWebhookInfo')).pending_update_count).toBe(0);
});
