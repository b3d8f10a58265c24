// python-telegram-bot 22.8's example bots built on inline keyboards, run as shipped (see ./launch.py) against the chat's
// Bot API, with Alice pressing their buttons through the chat API.
import { startTestPlatform, type TestPlatform } from '../../../support/platform.js';
import { userNumber } from '../../../helpers/bots.js';
import { exampleChat, labels } from './example-chat.js';
import { exampleTest } from './features.js';
import { ptbExample } from './run-example.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

const example = ptbExample;

exampleTest('inlinekeyboard: /start offers three options; the pressed one is answered and shown in the edited message', [], async () => {
  const chat = await exampleChat(platform, example('inlinekeyboard'));
  await chat.say('/help');
  await chat.botMessage({ text: 'Use /start to test this bot.' });
  await chat.say('/start');
  const menu = await chat.botMessage({ text: 'Please choose:' });
  expect(labels(menu)).toEqual([['Option 1', 'Option 2'], ['Option 3']]);
  const answer = await chat.press(menu, 'Option 2');
  expect(answer).toMatchObject({ messageId: menu.id });
  const edited = await chat.botMessage({ id: menu.id, text: 'Selected option: 2' });
  expect(edited.inlineKeyboard).toBeUndefined();
  await chat.finish();
});

exampleTest('inlinekeyboard2: the conversation routes through edited keyboards to its end and back to the start', [], async () => {
  const chat = await exampleChat(platform, example('inlinekeyboard2'));
  await chat.say('/start');
  const menu = await chat.botMessage({ text: 'Start handler, Choose a route' });
  expect(labels(menu)).toEqual([['1', '2']]);
  // Each press edits the same message; the next press is on the keyboard the edit left.
  const steps: Array<[string, string, string[][]]> = [
    ['1', 'First CallbackQueryHandler, Choose a route', [['3', '4']]],
    ['4', 'Fourth CallbackQueryHandler, Choose a route', [['2', '3']]],
    ['2', 'Second CallbackQueryHandler, Choose a route', [['1', '3']]],
    ['3', 'Third CallbackQueryHandler. Do want to start over?', [["Yes, let's do it again!", "Nah, I've had enough ..."]]],
    ["Yes, let's do it again!", 'Start handler, Choose a route', [['1', '2']]],
    ['1', 'First CallbackQueryHandler, Choose a route', [['3', '4']]],
    ['3', 'Third CallbackQueryHandler. Do want to start over?', [["Yes, let's do it again!", "Nah, I've had enough ..."]]],
  ];
  let current = menu;
  for (const [label, text, keyboard] of steps) {
    // No step leaves the text of the one before it, so the wait sees only the edit of this press.
    await chat.press(current, label);
    current = await chat.botMessage({ id: menu.id, text });
    expect(labels(current)).toEqual(keyboard);
  }
  await chat.press(current, "Nah, I've had enough ...");
  const ended = await chat.botMessage({ id: menu.id, text: 'See you next time!' });
  expect(ended.inlineKeyboard).toBeUndefined();
  await chat.finish();
});

exampleTest(
  'arbitrarycallbackdatabot: buttons carry Python objects; the list grows with each press; /clear makes old buttons invalid',
  [],
  async () => {
    const chat = await exampleChat(platform, example('arbitrarycallbackdatabot'));
    await chat.say('/start');
    const menu = await chat.botMessage({ text: 'Please choose:' });
    expect(labels(menu)).toEqual([['1'], ['2'], ['3'], ['4'], ['5']]);
    await chat.press(menu, '3');
    const first = await chat.botMessage({ id: menu.id, text: "So far you've selected [3]. Choose the next item:" });
    await chat.press(first, '5');
    const second = await chat.botMessage({ id: menu.id, text: "So far you've selected [3, 5]. Choose the next item:" });
    expect(labels(second)).toEqual([['1'], ['2'], ['3'], ['4'], ['5']]);
    await chat.say('/clear');
    await chat.botMessage({ text: 'All clear!' });
    await chat.press(second, '1');
    await chat.botMessage({
      id: menu.id,
      text: 'Sorry, I could not process this button click 😕 Please send /start to get a new keyboard.',
    });
    await chat.finish();
  },
);

exampleTest(
  'deeplinking: /start gives a t.me link; each payload leads to the next level, the last one by a button answer',
  [],
  async () => {
    const chat = await exampleChat(platform, example('deeplinking'));
    await chat.say('/start');
    await chat.botMessage({
      text: `Feel free to tell your friends about it:\n\nhttps://t.me/${chat.bot.username}?startgroup=check-this-out`,
    });
    await chat.say('/start check-this-out');
    const level1 = await chat.botMessage({
      text: "Awesome, you just accessed hidden functionality! Now let's get back to the private chat.",
    });
    expect(level1.inlineKeyboard).toEqual([[{ text: 'Continue here!', url: `https://t.me/${chat.bot.username}?start=so-cool` }]]);
    await chat.say('/start using-entities-here');
    const level3 = await chat.botMessage({ text: 'It is also possible to make deep-linking using InlineKeyboardButtons.' });
    const answer = await chat.press(level3, 'Like this!');
    expect(answer.url).toBe(`https://t.me/${chat.bot.username}?start=using-keyboard-here`);
    await chat.say('/start using-keyboard-here');
    await chat.botMessage({ text: "Congratulations! This is as deep as it gets 👏🏻\n\nThe payload was: ['using-keyboard-here']" });
    await chat.finish();
  },
);

exampleTest('deeplinking: the so-cool payload answers with an HTML link the user sees as a link', ['formatting'], async () => {
  const chat = await exampleChat(platform, example('deeplinking'));
  await chat.say('/start so-cool');
  const level2 = await chat.botMessage({ text: 'You can also mask the deep-linked URLs as links: ▶️ CLICK HERE.' });
  const url = `https://t.me/${chat.bot.username}?start=using-entities-here`;
  expect(level2.formatting).toEqual([expect.objectContaining({ url, offset: 49, length: 13 })]);
  await chat.finish();
});

exampleTest('contexttypesbot: a custom context counts clicks per message and lists the users it has seen', ['formatting'], async () => {
  const chat = await exampleChat(platform, example('contexttypesbot'));
  await chat.say('/start');
  const counter = await chat.botMessage({ text: 'This button was clicked 0 times.' });
  await chat.press(counter, 'Click me!');
  const once = await chat.botMessage({ id: counter.id, text: 'This button was clicked 1 times.' });
  await chat.press(once, 'Click me!');
  const twice = await chat.botMessage({ id: counter.id, text: 'This button was clicked 2 times.' });
  expect(twice.formatting).toEqual([expect.objectContaining({ type: 'italic', offset: 24, length: 1 })]);
  await chat.say('/print_users');
  await chat.botMessage({ text: `The following user IDs have used this bot: ${await userNumber(platform, chat.alice.id)}` });
  await chat.finish();
});
