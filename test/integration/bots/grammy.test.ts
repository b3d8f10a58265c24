// A grammY bot, written as grammY's documentation writes one and changed only in its API root, runs against the
// real chat listener over long polling: it echoes a user's message, answers /start with an inline keyboard, and
// handles the button press (answerCallbackQuery, editMessageText).
import { Bot, InlineKeyboard } from 'grammy';
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { botCall, createBot, groupWith, privateRoomWith, resultOf, say, waitForEvent, waitForMessage } from '../../helpers/bots.js';
import { withFields } from '../../helpers/match.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

/** The bot under test: nothing in it knows it is not talking to Telegram, except apiRoot. */
function echoBot(token: string, apiRoot: string, errors: unknown[]): Bot {
  const bot = new Bot(token, { client: { apiRoot } });
  bot.command('start', (ctx) =>
    ctx.reply('Welcome! Press the button.', { reply_markup: new InlineKeyboard().text('Press me', 'pressed') }),
  );
  bot.callbackQuery('pressed', async (ctx) => {
    await ctx.answerCallbackQuery({ text: 'You pressed it' });
    await ctx.editMessageText(`Pressed by ${ctx.from.first_name}`);
  });
  bot.on('message:text', (ctx) => ctx.reply(`echo: ${ctx.message.text}`));
  bot.catch((err) => {
    errors.push(err.error);
  });
  return bot;
}

/** Starts long polling; resolves once grammY is polling, with the loop's promise (wrapped, so it is not awaited). */
async function running(bot: Bot): Promise<{ loop: Promise<void> }> {
  let started!: () => void;
  const ready = new Promise<void>((resolve) => (started = resolve));
  const loop = bot.start({ onStart: () => started() });
  await Promise.race([ready, loop]);
  return { loop };
}

test('echoes a message, answers /start with a keyboard and handles the press, in a private room', async () => {
  const tenant = await platform.tenant();
  const alice = await tenant.account({ displayName: 'Alice' });
  const made = await createBot(platform, tenant);
  const roomId = await privateRoomWith(platform, alice, made.accountId);
  const errors: unknown[] = [];
  const bot = echoBot(made.token, platform.chatUrl, errors);
  const { loop } = await running(bot);
  try {
    expect(bot.botInfo.username).toBe(made.username);

    await say(platform, alice, roomId, 'hello bot');
    const echo = await waitForMessage(platform, alice, roomId, withFields({ senderId: made.accountId, text: 'echo: hello bot' }));
    expect(echo.inlineKeyboard).toBeUndefined();

    await say(platform, alice, roomId, '/start');
    const welcome = await waitForMessage(
      platform,
      alice,
      roomId,
      withFields({ senderId: made.accountId, text: 'Welcome! Press the button.' }),
    );
    expect(welcome.inlineKeyboard).toEqual([[{ text: 'Press me', callbackData: 'pressed' }]]);

    const press = await call(platform.chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages/${welcome.id}/callback`, {
      token: alice.token,
      body: { data: 'pressed' },
    });
    expect(press.status).toBe(200);
    const answered = await waitForEvent(platform, 'bot.callback_answered', { callbackQueryId: press.body.data.callbackQueryId });
    expect(answered).toMatchObject({
      text: 'You pressed it',
      showAlert: false,
      roomId,
      messageId: welcome.id,
      audience: { kind: 'accounts', accountIds: [alice.id] },
    });
    const edited = await waitForMessage(platform, alice, roomId, withFields({ id: welcome.id, text: 'Pressed by Alice' }));
    // Telegram removes the keyboard of an edit that does not repeat it.
    expect(edited.inlineKeyboard).toBeUndefined();
    expect(edited.editedAt).not.toBeNull();
  } finally {
    await bot.stop();
    await loop;
  }
  expect(errors).toEqual([]);
  // grammY confirms what it handled when it stops: nothing is left pending.
  const info = resultOf(await botCall(platform, made.token, 'getWebhookInfo'));
  expect(info).toEqual({ url: '', has_custom_certificate: false, pending_update_count: 0 });
});

test('in a group it hears commands, mentions and replies to it, and every message once read-all is on', async () => {
  const tenant = await platform.tenant();
  const [alice, bob] = await Promise.all([tenant.account({ displayName: 'Alice' }), tenant.account({ displayName: 'Bob' })]);
  const made = await createBot(platform, tenant);
  const roomId = await groupWith(platform, alice, [bob.id, made.accountId]);
  const errors: unknown[] = [];
  const bot = echoBot(made.token, platform.chatUrl, errors);
  const { loop } = await running(bot);
  try {
    await say(platform, bob, roomId, 'small talk the bot must not hear');
    await say(platform, bob, roomId, `hey @${made.username} listen`);
    await waitForMessage(platform, alice, roomId, (m) => m.text === `echo: hey @${made.username} listen`);
    await say(platform, alice, roomId, '/start@someotherbot');
    await say(platform, alice, roomId, `/start@${made.username}`);
    const welcome = await waitForMessage(platform, alice, roomId, (m) => m.text === 'Welcome! Press the button.');
    // A thread reply to the bot's message reaches it; grammY answers in the same thread (message_thread_id).
    await say(platform, bob, roomId, 'a reply to the bot', { threadRootId: welcome.id });
    const threadAnswer = await waitForMessage(platform, alice, roomId, (m) => m.text === 'echo: a reply to the bot');
    expect(threadAnswer.threadRootId).toBe(welcome.id);

    const readAll = await call(platform.chatUrl, 'PATCH', `/api/v1/bots/${made.id}/rooms/${roomId}`, {
      token: alice.token,
      body: { readAll: true },
    });
    expect(readAll.status).toBe(200);
    await say(platform, bob, roomId, 'plain words');
    await waitForMessage(platform, alice, roomId, (m) => m.text === 'echo: plain words');
  } finally {
    await bot.stop();
    await loop;
  }
  expect(errors).toEqual([]);
  const texts = (await call(platform.chatUrl, 'GET', `/api/v1/rooms/${roomId}/messages?limit=100`, { token: alice.token })).body.data.map(
    (m: any) => m.text,
  );
  expect(texts).not.toContain('echo: small talk the bot must not hear');
  expect(texts.filter((t: string) => t === 'Welcome! Press the button.')).toHaveLength(1);
});
