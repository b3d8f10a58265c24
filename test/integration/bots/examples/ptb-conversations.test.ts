// python-telegram-bot 22.8's conversation examples, run as shipped (see ./launch.py) against the chat's Bot API: a
// reply-keyboard button is pressed as a client presses one, by sending its text as Alice's own message.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestPlatform, type TestPlatform } from '../../../support/platform.js';
import { png, userUpload } from '../file-helpers.js';
import { say } from '../../../helpers/bots.js';
import { exampleChat, labels, withPerson } from './example-chat.js';
import { exampleTest } from './features.js';
import { ptbExample, runExample } from './run-example.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

const example = ptbExample;
const doctorKeyboard = [
  [{ text: 'Age' }, { text: 'Favourite colour' }],
  [{ text: 'Number of siblings' }, { text: 'Something else...' }],
  [{ text: 'Done' }],
];

/** conversationbot up to its photo question: /start, the one-time keyboard, Girl pressed, the keyboard removed. */
async function askedForPhoto() {
  const chat = await exampleChat(platform, example('conversationbot'));
  await chat.say('/start');
  const ask = await chat.botMessage({
    text: 'Hi! My name is Professor Bot. I will hold a conversation with you. Send /cancel to stop talking to me.\n\nAre you a boy or a girl?',
  });
  expect(ask.replyMarkup).toMatchObject({
    kind: 'keyboard',
    keyboard: [[{ text: 'Boy' }, { text: 'Girl' }, { text: 'Other' }]],
    oneTime: true,
    inputFieldPlaceholder: 'Boy or Girl?',
  });
  await chat.say('Girl');
  const photoPlease = await chat.botMessage({
    text: "I see! Please send me a photo of yourself, so I know what you look like, or send /skip if you don't want to.",
  });
  expect(photoPlease.replyMarkup).toMatchObject({ kind: 'removeKeyboard' });
  return chat;
}

exampleTest('conversationbot: gender from a one-time keyboard, the photo and location skipped, a bio', ['reply-keyboards'], async () => {
  const chat = await askedForPhoto();
  await chat.say('/skip');
  await chat.botMessage({ text: 'I bet you look great! Now, send me your location please, or send /skip.' });
  await chat.say('/skip');
  await chat.botMessage({ text: 'You seem a bit paranoid! At last, tell me something about yourself.' });
  await chat.say('I like tea.');
  await chat.botMessage({ text: 'Thank you! I hope we can talk again some day.' });
  await chat.finish();
});

exampleTest('conversationbot: a photo of the user, which the bot downloads; /cancel', ['reply-keyboards', 'image-sizes'], async () => {
  const chat = await askedForPhoto();
  const picture = png(64, 48);
  const uploadId = await userUpload(platform, chat.alice, picture, 'me.png', 'image/png');
  await say(platform, chat.alice, chat.roomId, 'This is me', { attachments: [{ uploadId }] });
  await chat.botMessage({ text: "Gorgeous! Now, send me your location please, or send /skip if you don't want to." });
  // The bot fetched the photo's file through getFile and the file path: the same bytes.
  expect(readFileSync(path.join(chat.example.workdir, 'user_photo.jpg')).equals(picture)).toBe(true);
  await chat.say('/cancel');
  const bye = await chat.botMessage({ text: 'Bye! I hope we can talk again some day.' });
  expect(bye.replyMarkup).toMatchObject({ kind: 'removeKeyboard' });
  await chat.finish();
});

exampleTest('conversationbot2: facts chosen from the keyboard and a custom category, summed up on Done', ['reply-keyboards'], async () => {
  const chat = await exampleChat(platform, example('conversationbot2'));
  await chat.say('/start');
  const hello = await chat.botMessage({
    text: "Hi! My name is Doctor Botter. I will hold a more complex conversation with you. Why don't you tell me something about yourself?",
  });
  expect(hello.replyMarkup).toMatchObject({ kind: 'keyboard', keyboard: doctorKeyboard, oneTime: true });
  await chat.say('Age');
  await chat.botMessage({ text: 'Your age? Yes, I would love to hear about that!' });
  await chat.say('33');
  const neat = await chat.botMessage({
    text: 'Neat! Just so you know, this is what you already told me:\nAge - 33\nYou can tell me more, or change your opinion on something.',
  });
  expect(neat.replyMarkup).toMatchObject({ kind: 'keyboard', keyboard: doctorKeyboard });
  await chat.say('Something else...');
  await chat.botMessage({ text: 'Alright, please send me the category first, for example "Most impressive skill"' });
  await chat.say('Most impressive skill');
  await chat.botMessage({ text: 'Your most impressive skill? Yes, I would love to hear about that!' });
  await chat.say('Juggling');
  await chat.botMessage({
    text:
      'Neat! Just so you know, this is what you already told me:\nAge - 33\nMost impressive skill - Juggling\n' +
      'You can tell me more, or change your opinion on something.',
  });
  await chat.say('Done');
  const bye = await chat.botMessage({
    text: 'I learned these facts about you: \nAge - 33\nMost impressive skill - Juggling\nUntil next time!',
  });
  expect(bye.replyMarkup).toMatchObject({ kind: 'removeKeyboard' });
  await chat.finish();
});

exampleTest('persistentconversationbot: facts and the conversation state outlive a restart of the bot', ['reply-keyboards'], async () => {
  const workdir = mkdtempSync(path.join(tmpdir(), 'example-bot-'));
  try {
    const first = await exampleChat(platform, example('persistentconversationbot'), workdir);
    await first.say('/start');
    await first.botMessage({
      text: "Hi! My name is Doctor Botter. I will hold a more complex conversation with you. Why don't you tell me something about yourself?",
    });
    await first.say('Age');
    await first.botMessage({ text: 'Your age? Yes, I would love to hear about that!' });
    await first.say('33');
    await first.botMessage({
      text: 'Neat! Just so you know, this is what you already told me:\nage - 33\nYou can tell me more, or change your opinion on something.',
    });
    await first.finish();

    // The same bot and room, a new process over the pickle file the first one wrote.
    const again = withPerson({
      ...first,
      example: await runExample(example('persistentconversationbot'), first.bot.token, platform.chatUrl, workdir),
    });
    await again.say('/show_data');
    await again.botMessage({ text: 'This is what you already told me: \nage - 33\n' });
    // Still in the conversation's CHOOSING state: Done ends it.
    await again.say('Done');
    const bye = await again.botMessage({ text: 'I learned these facts about you: \nage - 33\nUntil next time!' });
    expect(bye.replyMarkup).toMatchObject({ kind: 'removeKeyboard' });
    await again.say('/start');
    await again.botMessage({
      text:
        "Hi! My name is Doctor Botter. You already told me your age. Why don't you tell me something more about yourself? " +
        'Or change anything I already know.',
    });
    await again.finish();
  } finally {
    rmSync(workdir, { recursive: true, force: true });
  }
});

exampleTest('nestedconversationbot: nested conversations over inline keyboards collect a name and an age', [], async () => {
  const chat = await exampleChat(platform, example('nestedconversationbot'));
  const menuText =
    'You may choose to add a family member, yourself, show the gathered data, or end the conversation. To abort, simply type /stop.';
  const menuLabels = [
    ['Add family member', 'Add yourself'],
    ['Show data', 'Done'],
  ];
  await chat.say('/start');
  await chat.botMessage({ text: "Hi, I'm Family Bot and I'm here to help you gather information about your family." });
  let menu = await chat.botMessage({ text: menuText });
  expect(labels(menu)).toEqual(menuLabels);
  await chat.press(menu, 'Add yourself');
  menu = await chat.botMessage({ id: menu.id, text: 'Okay, please tell me about yourself.' });
  await chat.press(menu, 'Add info');
  menu = await chat.botMessage({ id: menu.id, text: 'Please select a feature to update.' });
  expect(labels(menu)).toEqual([['Name', 'Age', 'Done']]);
  await chat.press(menu, 'Name');
  await chat.botMessage({ id: menu.id, text: 'Okay, tell me.' });
  await chat.say('Alice');
  let features = await chat.botMessage({ text: 'Got it! Please select a feature to update.' });
  await chat.press(features, 'Age');
  await chat.botMessage({ id: features.id, text: 'Okay, tell me.' });
  await chat.say('33');
  features = await chat.botMessage({ text: 'Got it! Please select a feature to update.' });
  await chat.press(features, 'Done');
  menu = await chat.botMessage({ id: features.id, text: menuText });
  expect(labels(menu)).toEqual(menuLabels);
  await chat.press(menu, 'Show data');
  menu = await chat.botMessage({
    id: features.id,
    text: 'Yourself:\nName: Alice, Age: 33\n\nParents:\nNo information yet.\n\nChildren:\nNo information yet.',
  });
  await chat.press(menu, 'Back');
  menu = await chat.botMessage({ id: features.id, text: menuText });
  await chat.press(menu, 'Done');
  const end = await chat.botMessage({ id: features.id, text: 'See you around!' });
  expect(end.inlineKeyboard).toBeUndefined();
  await chat.finish();
});
