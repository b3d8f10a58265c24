// The conformance matrix: every library of ./matrix/libraries.ts, unmodified apart from its API root, runs the same
// bot against the real chat listener over long polling, in a private room with a user who chats through the chat
// API: an echo, /start answered with an inline keyboard, and the button pressed, which the bot answers with
// answerCallbackQuery and editMessageText. A library that fails any step fails the build.
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { createBot, privateRoomWith, say, userNumber, waitForEvent, waitForMessage } from '../../helpers/bots.js';
import { grammyFile, libraries } from './matrix/libraries.js';
import { withFields } from '../../helpers/match.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

test.each(libraries.map((l) => [l.name, l] as const))(
  '%s: echo, /start with an inline keyboard, the press answered and the message edited',
  async (_name, library) => {
    const tenant = await platform.tenant();
    const alice = await tenant.account({ displayName: 'Alice' });
    const made = await createBot(platform, tenant);
    const roomId = await privateRoomWith(platform, alice, made.accountId);
    const bot = await library.start(made.token, platform.chatUrl);
    try {
      expect(bot.botId).toBe(await userNumber(platform, made.accountId));

      await say(platform, alice, roomId, 'hello bot');
      await waitForMessage(platform, alice, roomId, withFields({ senderId: made.accountId, text: 'echo: hello bot' }));

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
        roomId,
        messageId: welcome.id,
        audience: { kind: 'accounts', accountIds: [alice.id] },
      });
      const edited = await waitForMessage(platform, alice, roomId, withFields({ id: welcome.id, text: 'Pressed by Alice' }));
      expect(edited.inlineKeyboard).toBeUndefined();
    } finally {
      await bot.stop();
    }
    expect(bot.errors).toEqual([]);
    // Each message answered once: no update was handled twice.
    const texts = (await call(platform.chatUrl, 'GET', `/api/v1/rooms/${roomId}/messages?limit=100`, { token: alice.token })).body.data.map(
      (m: any) => m.text,
    );
    expect(texts.filter((t: string) => t === 'echo: hello bot')).toHaveLength(1);
    expect(texts.filter((t: string) => t.startsWith('echo: /start'))).toHaveLength(0);
    process.stdout.write(`conformance: ${library.name} ${bot.version} passed\n`);
  },
);

test('grammY: /file answered with a document uploaded with InputFile; the user downloads the same bytes', async () => {
  const tenant = await platform.tenant();
  const alice = await tenant.account({ displayName: 'Alice' });
  const made = await createBot(platform, tenant);
  const roomId = await privateRoomWith(platform, alice, made.accountId);
  const bot = await libraries.find((l) => l.name === 'grammY')!.start(made.token, platform.chatUrl);
  try {
    await say(platform, alice, roomId, '/file');
    const sent = await waitForMessage(platform, alice, roomId, withFields({ senderId: made.accountId, text: 'Here is your file' }));
    expect(sent.attachments).toEqual([
      expect.objectContaining({ fileName: 'grammy.txt', contentType: 'text/plain', size: grammyFile.length }),
    ]);
    const res = await fetch(`${platform.chatUrl}${sent.attachments[0].url}`, { headers: { authorization: `Bearer ${alice.token}` } });
    expect(await res.text()).toBe(grammyFile);
  } finally {
    await bot.stop();
  }
  expect(bot.errors).toEqual([]);
});
