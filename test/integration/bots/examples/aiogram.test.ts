// aiogram 3.31's example bots, run as shipped (see ./launch.py: the token from BOT_TOKEN as the examples read it, the
// API server pointed at the chat) against the chat's Bot API, with people acting through the chat API.
import { call, startTestPlatform, type TestPlatform } from '../../../support/platform.js';
import { createBot, groupWith, say, userNumber, waitForMessage } from '../../../helpers/bots.js';
import { png, userUpload } from '../file-helpers.js';
import { exampleChat, labels, withPerson } from './example-chat.js';
import { exampleTest } from './features.js';
import { aiogramExample, runExample } from './run-example.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

const example = aiogramExample;

exampleTest('echo_bot: a text and a picture are copied back with send_copy', [], async () => {
  const chat = await exampleChat(platform, example('echo_bot'));
  await chat.say('Copy me, please');
  await chat.botMessage({ text: 'Copy me, please' });
  const picture = png(40, 30);
  const uploadId = await userUpload(platform, chat.alice, picture, 'cat.png', 'image/png');
  await say(platform, chat.alice, chat.roomId, 'A cat', { attachments: [{ uploadId }] });
  const copy = await chat.botMessage({ text: 'A cat' });
  expect(copy.attachments).toEqual([expect.objectContaining({ contentType: 'image/png', size: picture.length })]);
  await chat.finish();
});

exampleTest('echo_bot: /start greets the user by name in bold', ['formatting'], async () => {
  const chat = await exampleChat(platform, example('echo_bot'));
  await chat.say('/start');
  const hello = await chat.botMessage({ text: 'Hello, Alice!' });
  expect(hello.formatting).toEqual([expect.objectContaining({ type: 'bold', offset: 7, length: 5 })]);
  await chat.finish();
});

exampleTest('error_handling: valid commands answered; an InvalidName reaches its error handler', [], async () => {
  const chat = await exampleChat(platform, example('error_handling'));
  await chat.say('/age 33');
  await chat.botMessage({ text: 'Your age is 33' });
  await chat.say('/name Alice');
  await chat.botMessage({ text: 'Your name is Alice' });
  await chat.say('/name');
  await chat.example.logged(/Error `Invalid` caught: InvalidName\('Invalid name\. Please provide your name as a command argument\.'\)/);
  await chat.finish([/Error `Invalid` caught/]);
});

exampleTest('error_handling: an InvalidAge is reported to the chat by its error handler', ['formatting'], async () => {
  const chat = await exampleChat(platform, example('error_handling'));
  await chat.say('/age');
  await chat.botMessage({ text: "Error caught: InvalidAge('No age provided. Please provide your age as a command argument.')" });
  await chat.say('/age many');
  await chat.botMessage({ text: "Error caught: InvalidAge('Age should be a number')" });
  await chat.finish([/Error caught: InvalidAge/]);
});

exampleTest('specify_updates: the used update types are asked for; a press is answered and an edit gets a reply', [], async () => {
  const chat = await exampleChat(platform, example('specify_updates'));
  await chat.say('/start');
  const hello = await waitForMessage(platform, chat.alice, chat.roomId, (m) => m.senderId === chat.bot.accountId && !!m.inlineKeyboard);
  expect(labels(hello)).toEqual([['Tap me, bro']]);
  expect((await chat.press(hello, 'Tap me, bro')).text).toBe("Yeah good, now I'm fine");
  const said = await chat.say('A message I will edit');
  const edit = await call(platform.chatUrl, 'PATCH', `/api/v1/rooms/${chat.roomId}/messages/${said.id}`, {
    token: chat.alice.token,
    body: { text: 'A message I edited' },
  });
  expect(edit.status).toBe(200);
  await chat.botMessage({ text: 'Message was edited, Big Brother watches you' });
  await chat.finish();
});

exampleTest('specify_updates: greets by name in bold', ['formatting'], async () => {
  const chat = await exampleChat(platform, example('specify_updates'));
  await chat.say('/start');
  const hello = await chat.botMessage({ text: 'Hello, Alice!' });
  expect(hello.formatting).toEqual([expect.objectContaining({ type: 'bold', offset: 7, length: 5 })]);
  await chat.finish();
});

exampleTest(
  'specify_updates: the bot made an administrator says so; a member promoted after is reported with who did it',
  ['formatting'],
  async () => {
    const tenant = await platform.tenant();
    const [alice, bob] = await Promise.all(['Alice', 'Bob'].map((displayName) => tenant.account({ displayName })));
    const bot = await createBot(platform, tenant);
    const running = await runExample(example('specify_updates'), bot.token, platform.chatUrl);
    const roomId = await groupWith(platform, alice!, [bob!.id, bot.accountId]);
    const chat = withPerson({ platform, alice: alice!, bot, roomId, example: running });
    const promote = async (accountId: string) =>
      expect(
        (
          await call(platform.chatUrl, 'PATCH', `/api/v1/rooms/${roomId}/members/${accountId}/role`, {
            token: alice!.token,
            body: { role: 'ADMIN' },
          })
        ).status,
      ).toBeLessThan(300);
    // Its own join is a join transition, which the example's my_chat_member filter leaves out; the promotion is not.
    await promote(bot.accountId);
    const own = await chat.botMessage({ text: 'This Bot`s status was changed from member to administrator' });
    expect(own.formatting).toEqual([
      expect.objectContaining({ type: 'bold', offset: 35, length: 6 }),
      expect.objectContaining({ type: 'bold', offset: 45, length: 13 }),
    ]);
    // chat_member is among the update types the example asks for (resolve_used_update_types): another member's change
    // reaches it, from the member who made it.
    await promote(bob!.id);
    const aliceNumber = String(await userNumber(platform, alice!.id));
    const other = await chat.botMessage({ text: `Member ${aliceNumber} was changed from member to administrator` });
    expect(other.formatting).toEqual([expect.objectContaining({ type: 'code', offset: 7, length: aliceNumber.length })]);
    await chat.finish();
  },
);

exampleTest('finite_state_machine: name, a Yes from the keyboard, the language, and the summary', ['reply-keyboards'], async () => {
  const chat = await exampleChat(platform, example('finite_state_machine'));
  await chat.say('/start');
  const ask = await chat.botMessage({ text: "Hi there! What's your name?" });
  expect(ask.replyMarkup).toMatchObject({ kind: 'removeKeyboard' });
  await chat.say('Alice');
  const like = await chat.botMessage({ text: 'Nice to meet you, Alice!\nDid you like to write bots?' });
  expect(like.replyMarkup).toMatchObject({ kind: 'keyboard', resize: true, keyboard: [[{ text: 'Yes' }, { text: 'No' }]] });
  await chat.say('Maybe');
  await chat.botMessage({ text: "I don't understand you :(" });
  await chat.say('Yes');
  await chat.botMessage({ text: "Cool! I'm too!\nWhat programming language did you use for it?" });
  await chat.say('Python');
  await chat.botMessage({ text: "Python, you say? That's the language that makes my circuits light up! 😉" });
  const summary = await chat.botMessage({ text: "I'll keep in mind that, Alice, you like to write bots with Python." });
  expect(summary.replyMarkup).toMatchObject({ kind: 'removeKeyboard' });
  await chat.say('/start');
  await chat.botMessage({ text: "Hi there! What's your name?" });
  await chat.say('cancel');
  await chat.botMessage({ text: 'Cancelled.' });
  await chat.finish();
});

exampleTest(
  "scene: /demo's inline button taken away on the press; the scene's second answer to that press refused, as Telegram refuses it",
  [],
  async () => {
    const chat = await exampleChat(platform, example('scene'));
    await chat.say('/demo');
    const demo = await chat.botMessage({ text: 'Demo started' });
    expect(labels(demo)).toEqual([['Go to form']]);
    await chat.press(demo, 'Go to form');
    // delete_reply_markup: editMessageReplyMarkup without a keyboard.
    const bare = await waitForMessage(platform, chat.alice, chat.roomId, (m) => m.id === demo.id && m.inlineKeyboard === undefined);
    expect(bare.text).toBe('Demo started');
    // NameScene's callback entry answers the press again: a press is answered once.
    await chat.example.logged(/TelegramBadRequest: Telegram server says - Bad Request: query is too old/);
    await chat.finish([/query is too old|Cause exception while process update|Traceback/]);
  },
);

exampleTest('scene: the Demo button, then the scenes of name, bots and language', ['reply-keyboards'], async () => {
  const chat = await exampleChat(platform, example('scene'));
  await chat.say('hello');
  const offer = await chat.botMessage({ text: 'Start demo?\nYou can also start demo via command /demo' });
  expect(offer.replyMarkup).toMatchObject({ kind: 'keyboard', keyboard: [[{ text: 'Demo' }]] });
  await chat.say('Demo');
  const name = await chat.botMessage({ text: "Hi there! What's your name?" });
  expect(name.replyMarkup).toMatchObject({ kind: 'keyboard', keyboard: [[{ text: '❌ Cancel' }]] });
  await chat.say('Alice');
  await chat.botMessage({ text: 'Nice to meet you, Alice!' });
  const like = await chat.botMessage({ text: 'Did you like to write bots?' });
  expect(like.replyMarkup).toMatchObject({
    kind: 'keyboard',
    keyboard: [
      [{ text: 'Yes' }, { text: 'No' }],
      [{ text: '🔙 Back' }, { text: '❌ Cancel' }],
    ],
  });
  await chat.say('Yes');
  await chat.botMessage({ text: "Cool! I'm too!" });
  await chat.botMessage({ text: 'What language do you prefer?' });
  await chat.say('Python');
  await chat.botMessage({ text: "Python, you say? That's the language that makes my circuits light up! 😉" });
  const summary = await chat.botMessage({ text: "I'll keep in mind that, Alice, you like to write bots with Python." });
  expect(summary.replyMarkup).toMatchObject({ kind: 'removeKeyboard' });
  // The form done, the default scene is entered again and offers the demo once more.
  await chat.botMessage({ text: 'Start demo?\nYou can also start demo via command /demo' });
  await chat.finish();
});
