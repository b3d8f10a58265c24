// python-telegram-bot 22.8's example bots of chats, jobs, polls, members and errors, run as shipped (see ./launch.py)
// against the chat's Bot API, with people acting through the chat API.
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../../support/platform.js';
import { chatNumber, createBot, groupWith, say, userNumber } from '../../../helpers/bots.js';
import { exampleChat, withPerson } from './example-chat.js';
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

async function vote(who: TestAccount, pollId: string, positions: number[]): Promise<void> {
  const poll = await call(platform.chatUrl, 'GET', `/api/v1/polls/${pollId}`, { token: who.token });
  const optionIds = positions.map((i) => poll.body.data.options[i].id);
  const res = await call(platform.chatUrl, 'POST', `/api/v1/polls/${pollId}/votes`, { token: who.token, body: { optionIds } });
  expect(res.status).toBe(200);
}

/** The example in a group of Alice (owner), Bob and Carol, started before the bot joins, as a bot is added to a group. */
async function exampleInGroup(name: string) {
  const tenant = await platform.tenant();
  const [alice, bob, carol] = await Promise.all(['Alice', 'Bob', 'Carol'].map((displayName) => tenant.account({ displayName })));
  const bot = await createBot(platform, tenant);
  const running = await runExample(example(name), bot.token, platform.chatUrl);
  const roomId = await groupWith(platform, alice!, [bob!.id, carol!.id, bot.accountId]);
  return { chat: withPerson({ platform, alice: alice!, bot, roomId, example: running }), bob: bob!, carol: carol!, tenant };
}

exampleTest('rawapibot: the bare Bot API loop echoes each text once, in order', [], async () => {
  const chat = await exampleChat(platform, example('rawapibot'));
  await chat.say('first words');
  await chat.botMessage({ text: 'first words' });
  await chat.say('second words');
  await chat.botMessage({ text: 'second words' });
  await chat.finish();
});

exampleTest('echobot: /help and texts echoed back', [], async () => {
  const chat = await exampleChat(platform, example('echobot'));
  await chat.say('/help');
  await chat.botMessage({ text: 'Help!' });
  await chat.say('Is anybody there?');
  await chat.botMessage({ text: 'Is anybody there?' });
  await chat.finish();
});

exampleTest('echobot: /start greets with a mention and forces a reply', ['formatting', 'reply-keyboards'], async () => {
  const chat = await exampleChat(platform, example('echobot'));
  await chat.say('/start');
  const hi = await chat.botMessage({ text: 'Hi Alice!' });
  expect(hi.formatting).toEqual([expect.objectContaining({ offset: 3, length: 5 })]);
  expect(hi.replyMarkup).toMatchObject({ kind: 'forceReply', selective: true });
  await chat.finish();
});

exampleTest('timerbot: /set runs a job that beeps when due; a second /set replaces it; /unset cancels', [], async () => {
  const chat = await exampleChat(platform, example('timerbot'));
  await chat.say('/start');
  await chat.botMessage({ text: 'Hi! Use /set <seconds> to set a timer' });
  await chat.say('/set');
  await chat.botMessage({ text: 'Usage: /set <seconds>' });
  await chat.say('/set -1');
  await chat.botMessage({ text: 'Sorry we can not go back to future!' });
  await chat.say('/set 0.5');
  await chat.botMessage({ text: 'Timer successfully set!' });
  await chat.botMessage({ text: 'Beep! 0.5 seconds are over!' });
  await chat.say('/set 300');
  await chat.botMessage({ text: 'Timer successfully set!' });
  await chat.say('/set 600');
  await chat.botMessage({ text: 'Timer successfully set! Old one was removed.' });
  await chat.say('/unset');
  await chat.botMessage({ text: 'Timer successfully cancelled!' });
  await chat.say('/unset');
  await chat.botMessage({ text: 'You have no active timer.' });
  await chat.finish();
});

exampleTest('pollbot: /quiz in a group is stopped by the bot once three members have answered', [], async () => {
  const { chat, bob, carol } = await exampleInGroup('pollbot');
  await chat.say('/start');
  await chat.botMessage({ text: 'Please select /poll to get a Poll, /quiz to get a Quiz or /preview to generate a preview for your poll' });
  await chat.say('/quiz');
  const quiz = await chat.botMessage({ type: 'POLL', text: 'How many eggs do you need for a cake?' });
  const poll = await call(platform.chatUrl, 'GET', `/api/v1/polls/${quiz.pollId}`, { token: bob.token });
  expect(poll.body.data).toMatchObject({ closed: false, options: ['1', '2', '4', '20'].map((text) => expect.objectContaining({ text })) });
  await vote(chat.alice, quiz.pollId, [2]);
  await vote(bob, quiz.pollId, [1]);
  await vote(carol, quiz.pollId, [2]);
  // The bot reads total_voter_count 3 from the poll update and calls stopPoll.
  const deadline = Date.now() + 10_000;
  let closed = false;
  while (!closed && Date.now() < deadline) {
    const seen = await call(platform.chatUrl, 'GET', `/api/v1/polls/${quiz.pollId}`, { token: carol.token });
    closed = seen.body.data.closed;
    if (closed) expect(seen.body.data.closedBy).toBe(chat.bot.accountId);
    else await new Promise((r) => setTimeout(r, 25));
  }
  expect(closed).toBe(true);
  await chat.finish();
});

exampleTest('pollbot: /poll collects answers and tells who feels what', ['formatting'], async () => {
  const chat = await exampleChat(platform, example('pollbot'));
  await chat.say('/poll');
  const sent = await chat.botMessage({ type: 'POLL', text: 'How are you?' });
  await vote(chat.alice, sent.pollId, [0, 2]);
  const feels = await chat.botMessage({ text: 'Alice feels Good and Fantastic!' });
  expect(feels.formatting).toEqual([expect.objectContaining({ offset: 0, length: 5 })]);
  await chat.finish();
});

exampleTest(
  'pollbot: /preview asks for a poll with a reply keyboard; the poll made is answered closed, the keyboard removed',
  ['reply-keyboards'],
  async () => {
    const chat = await exampleChat(platform, example('pollbot'));
    await chat.say('/preview');
    const ask = await chat.botMessage({ text: 'Press the button to let the bot generate a preview for your poll' });
    expect(ask.replyMarkup).toMatchObject({ kind: 'keyboard', oneTime: true, keyboard: [[{ text: 'Press me!', requestPoll: {} }]] });
    // The button opens the client's poll editor: the user's poll is an ordinary poll of the room.
    const made = await call(platform.chatUrl, 'POST', `/api/v1/rooms/${chat.roomId}/polls`, {
      token: chat.alice.token,
      body: { question: 'Lunch?', options: ['Soup', 'Salad'] },
    });
    expect(made.status).toBe(201);
    const copy = await chat.botMessage({ type: 'POLL', text: 'Lunch?' });
    expect(copy.replyMarkup).toMatchObject({ kind: 'removeKeyboard' });
    // The copy is sent with is_closed: written closed, with its keyboard, in one commit.
    const poll = await call(platform.chatUrl, 'GET', `/api/v1/polls/${copy.pollId}`, { token: chat.alice.token });
    expect(poll.body.data).toMatchObject({
      closed: true,
      options: [expect.objectContaining({ text: 'Soup' }), expect.objectContaining({ text: 'Salad' })],
    });
    await chat.finish();
  },
);

exampleTest('chatmemberbot: greets a private chat, tracks the groups it is added to and lists them with /show_chats', [], async () => {
  const chat = await exampleChat(platform, example('chatmemberbot'));
  await chat.say('hello');
  await chat.botMessage({ text: "Welcome Alice. Use /show_chats to see what chats I'm in." });
  const groupId = await groupWith(platform, chat.alice, [chat.bot.accountId]);
  await chat.example.logged(/Alice added the bot to the group Bots$/);
  await chat.say('/show_chats');
  const privateId = await chatNumber(platform, chat.roomId);
  await chat.botMessage({
    text:
      `@${chat.bot.username} is currently in a conversation with the user IDs ${privateId}. Moreover it is a member of the groups ` +
      `with IDs ${await chatNumber(platform, groupId)} and administrator in the channels with IDs .`,
  });
  await chat.finish();
});

exampleTest('chatmemberbot: welcomes a member added to its group and says goodbye when one leaves', ['formatting'], async () => {
  const { chat, tenant } = await exampleInGroup('chatmemberbot');
  await chat.example.logged(/Alice added the bot to the group Bots$/);
  const dave = await tenant.account({ displayName: 'Dave' });
  const added = await call(platform.chatUrl, 'POST', `/api/v1/rooms/${chat.roomId}/members`, {
    token: chat.alice.token,
    body: { accountIds: [dave.id] },
  });
  expect(added.status).toBeLessThan(300);
  await chat.botMessage({ text: 'Dave was added by Alice. Welcome!' });
  expect((await call(platform.chatUrl, 'POST', `/api/v1/rooms/${chat.roomId}/leave`, { token: dave.token })).status).toBeLessThan(300);
  // Dave left on his own: the update's `from` is Dave himself, as in Telegram, and the example thanks its cause.
  await chat.botMessage({ text: 'Dave is no longer with us. Thanks a lot, Dave ...' });
  await chat.finish();
});

exampleTest('errorhandlerbot: a failing handler reaches the error handler, whose report to an unknown chat is refused', [], async () => {
  const chat = await exampleChat(platform, example('errorhandlerbot'));
  await say(platform, chat.alice, chat.roomId, '/bad_command');
  await chat.example.logged(/Exception while handling an update:/);
  await chat.example.logged(/AttributeError: 'ExtBot' object has no attribute 'wrong_method_name'/);
  // DEVELOPER_CHAT_ID is the example's placeholder: the chat answers Telegram's "chat not found".
  await chat.example.logged(/BadRequest: Chat not found/i);
  await chat.finish([
    /Exception while handling an update|Traceback|No error handlers are registered|uncaught error was raised while handling the error/,
  ]);
  expect(await userNumber(platform, chat.alice.id)).toBeGreaterThan(0);
});

exampleTest('errorhandlerbot: /start tells the chat id in code', ['formatting'], async () => {
  const chat = await exampleChat(platform, example('errorhandlerbot'));
  await chat.say('/start');
  const id = await chatNumber(platform, chat.roomId);
  const told = await chat.botMessage({ text: `Use /bad_command to cause an error.\nYour chat id is ${id}.` });
  expect(told.formatting).toEqual([expect.objectContaining({ type: 'code', offset: 52, length: String(id).length })]);
  await chat.finish();
});
