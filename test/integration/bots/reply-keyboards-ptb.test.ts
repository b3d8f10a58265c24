// python-telegram-bot 22.8, unmodified apart from its API root, runs a conversation with reply keyboards: the user
// answers by pressing a button (their own message through the chat API), and the keyboard follows as in Telegram.
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { call } from '../../support/platform.js';
import { createBot, privateRoomWith, say, waitForMessage } from '../../helpers/bots.js';
import { withFields } from '../../helpers/match.js';
import { python } from './matrix/libraries.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

test('python-telegram-bot: a one-time reply keyboard, the press, its removal and a forced reply', async () => {
  const tenant = await platform.tenant();
  const alice = await tenant.account({ displayName: 'Alice' });
  const made = await createBot(platform, tenant);
  const roomId = await privateRoomWith(platform, alice, made.accountId);
  const current = async () =>
    (await call(platform.chatUrl, 'GET', `/api/v1/rooms/${roomId}/reply-keyboard`, { token: alice.token })).body.data;
  const bot = await python('python-telegram-bot', 'ptb_reply_keyboard_bot.py').start(made.token, platform.chatUrl);
  try {
    await say(platform, alice, roomId, '/start');
    const asked = await waitForMessage(platform, alice, roomId, withFields({ senderId: made.accountId, text: 'Are you a boy or a girl?' }));
    const keyboard = {
      kind: 'keyboard',
      keyboard: [[{ text: 'Boy' }, { text: 'Girl' }, { text: 'Other' }]],
      persistent: false,
      resize: false,
      oneTime: true,
      inputFieldPlaceholder: 'Boy or Girl?',
      selective: false,
    };
    expect(asked.replyMarkup).toEqual(keyboard);
    expect(await current()).toEqual({ messageId: asked.id, keyboard });

    // The press: the button's text as Alice's own message.
    await say(platform, alice, roomId, 'Girl');
    const noted = await waitForMessage(platform, alice, roomId, withFields({ senderId: made.accountId, text: 'Noted: Girl' }));
    expect(noted.replyMarkup).toEqual({ kind: 'removeKeyboard', selective: false });
    expect(await current()).toEqual({ messageId: null, keyboard: null });

    // ForceReply(selective=True) in reply to Alice's /name: for her.
    await say(platform, alice, roomId, '/name');
    const named = await waitForMessage(platform, alice, roomId, withFields({ senderId: made.accountId, text: 'What is your name?' }));
    expect(named.replyMarkup).toEqual({ kind: 'forceReply', selective: true, recipients: [alice.id] });
  } finally {
    await bot.stop();
  }
  expect(bot.errors).toEqual([]);
});
