// The grammY tour bot (./grammy-tour.ts) against the chat's Bot API, with Alice using it through the chat API.
import { call, startTestPlatform, type TestPlatform } from '../../../support/platform.js';
import { botCall, createBot, privateRoomWith, resultOf, say, waitForMessage } from '../../../helpers/bots.js';
import { eventually } from '../../../helpers/expect.js';
import { withFields } from '../../../helpers/match.js';
import { withPerson } from './example-chat.js';
import { exampleTest } from './features.js';
import { startTour, tourPicture } from './grammy-tour.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

/** Alice's private room with a fresh bot running the tour. */
async function tour() {
  const tenant = await platform.tenant();
  const alice = await tenant.account({ displayName: 'Alice' });
  const bot = await createBot(platform, tenant);
  const roomId = await privateRoomWith(platform, alice, bot.accountId);
  const running = await startTour(bot.token, platform.chatUrl);
  const noLog = {
    workdir: '',
    log: [],
    errors: () => running.errors,
    logged: () => Promise.reject(new Error('no log')),
    stop: running.stop,
  };
  return withPerson({ platform, alice, bot, roomId, example: noLog });
}

exampleTest('grammY tour: commands set, inline buttons answered and edited, a photo, a reaction, a poll answer reported', [], async () => {
  const chat = await tour();
  expect(resultOf(await botCall(platform, chat.bot.token, 'getMyCommands', {})).map((c: { command: string }) => c.command)).toEqual([
    'menu',
    'colour',
    'photo',
    'poll',
  ]);
  await chat.say('/start');
  await chat.botMessage({ text: 'Welcome to the tour: /menu, /colour, /photo, /poll, or anything to get a 👍.' });

  await chat.say('/menu');
  const menu = await chat.botMessage({ text: 'Do you like the tour?' });
  expect(menu.inlineKeyboard).toEqual([
    [
      { text: 'Yes', callbackData: 'like' },
      { text: 'No', callbackData: 'dislike' },
    ],
  ]);
  expect((await chat.press(menu, 'Yes')).text).toBe('Glad to hear it');
  const edited = await chat.botMessage({ id: menu.id, text: 'Alice answered yes' });
  expect(edited.inlineKeyboard).toBeUndefined();

  await chat.say('/photo');
  const photo = await chat.botMessage({ text: 'The tour in one picture' });
  expect(photo.attachments).toEqual([expect.objectContaining({ fileName: 'tour.png', size: tourPicture().length })]);
  const file = await fetch(`${platform.chatUrl}${photo.attachments[0].url}`, { headers: { authorization: `Bearer ${chat.alice.token}` } });
  expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(tourPicture()))).toBe(true);

  const said = await say(platform, chat.alice, chat.roomId, 'What a nice bot');
  const reactions = async () =>
    (await call(platform.chatUrl, 'GET', `/api/v1/rooms/${chat.roomId}/messages/${said.id}/reactions`, { token: chat.alice.token })).body
      .data;
  await eventually(async () => (await reactions()).length > 0);
  expect(await reactions()).toEqual([{ emoji: '👍', count: 1, reactedByMe: false }]);

  await chat.say('/poll');
  const poll = await chat.botMessage({ type: 'POLL', text: 'Tea or coffee?' });
  const options = (await call(platform.chatUrl, 'GET', `/api/v1/polls/${poll.pollId}`, { token: chat.alice.token })).body.data.options;
  const vote = await call(platform.chatUrl, 'POST', `/api/v1/polls/${poll.pollId}/votes`, {
    token: chat.alice.token,
    body: { optionIds: [options[1].id] },
  });
  expect(vote.status).toBe(200);
  await chat.botMessage({ text: 'Alice chose Coffee' });
  await chat.finish();
});

exampleTest('grammY tour: a reply keyboard whose button the user presses, then removed', ['reply-keyboards'], async () => {
  const chat = await tour();
  await chat.say('/colour');
  const ask = await chat.botMessage({ text: 'Pick a colour' });
  expect(ask.replyMarkup).toMatchObject({ kind: 'keyboard', oneTime: true, resize: true, keyboard: [[{ text: 'Red' }, { text: 'Blue' }]] });
  await chat.say('Blue');
  const done = await waitForMessage(platform, chat.alice, chat.roomId, withFields({ senderId: chat.bot.accountId, text: 'Blue it is' }));
  expect(done.replyMarkup).toMatchObject({ kind: 'removeKeyboard' });
  await chat.finish();
});
