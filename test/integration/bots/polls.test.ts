// sendPoll and stopPoll over the chat's polls: what members see and vote on through the chat API, the poll and
// poll_answer updates the bot receives, and Telegram's refusals (which change nothing).
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { count } from '../../helpers/expect.js';
import { botCall, botInGroup, confirmAll, expectBotError, pendingUpdates, resultOf, userNumber, updateKinds } from '../../helpers/bots.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

async function vote(who: TestAccount, pollId: string, positions: number[]): Promise<void> {
  const poll = await call(platform.chatUrl, 'GET', `/api/v1/polls/${pollId}`, { token: who.token });
  const optionIds = positions.map((i) => poll.body.data.options[i].id);
  const res = await call(platform.chatUrl, 'POST', `/api/v1/polls/${pollId}/votes`, { token: who.token, body: { optionIds } });
  expect(res.status).toBe(200);
}

const pollsIn = (roomId: string) => count(platform.db, 'select count(*) as n from polls where room_id = $1', [roomId]);

test('sendPoll creates the chat poll with its POLL message; members vote; the bot gets poll and poll_answer updates', async () => {
  const { alice, bob, bot, roomId, chatId } = await botInGroup(platform);
  const sent = resultOf(
    await botCall(platform, bot.token, 'sendPoll', {
      chat_id: chatId,
      question: 'How are you?',
      options: ['Good', { text: 'Really good' }, 'Fantastic'],
      is_anonymous: false,
      allows_multiple_answers: true,
    }),
  );
  expect(sent).toMatchObject({
    chat: { id: chatId, type: 'group' },
    poll: {
      question: 'How are you?',
      options: [
        { text: 'Good', voter_count: 0 },
        { text: 'Really good', voter_count: 0 },
        { text: 'Fantastic', voter_count: 0 },
      ],
      total_voter_count: 0,
      is_closed: false,
      is_anonymous: false,
      type: 'regular',
      allows_multiple_answers: true,
    },
  });
  expect(sent.text).toBeUndefined();

  // The room sees the chat's poll, sent by the bot's account.
  const message = await call(platform.chatUrl, 'GET', `/api/v1/rooms/${roomId}/messages?limit=1`, { token: alice.token });
  expect(message.body.data[0]).toMatchObject({ type: 'POLL', pollId: sent.poll.id, senderId: bot.accountId, text: 'How are you?' });

  await confirmAll(platform, bot.token);
  await vote(alice, sent.poll.id, [0, 2]);
  await pendingUpdates(platform, bot.token, 2);
  await vote(bob, sent.poll.id, [1]);
  const updates = await pendingUpdates(platform, bot.token, 4);
  expect(updates.map(updateKinds)).toEqual([['poll'], ['poll_answer'], ['poll'], ['poll_answer']]);
  expect(updates[1].poll_answer).toEqual({
    poll_id: sent.poll.id,
    user: { id: await userNumber(platform, alice.id), is_bot: false, first_name: 'Alice' },
    option_ids: [0, 2],
    option_persistent_ids: [sent.poll.options[0].persistent_id, sent.poll.options[2].persistent_id],
  });
  expect(updates[3].poll_answer).toMatchObject({ poll_id: sent.poll.id, option_ids: [1] });
  expect(updates[2].poll.options.map((o: { voter_count: number }) => o.voter_count)).toEqual([1, 1, 1]);
  expect(updates[2].poll.total_voter_count).toBe(2);

  // A changed vote is reported again; the same vote again is not (the chat writes nothing).
  await confirmAll(platform, bot.token);
  await vote(alice, sent.poll.id, [1]);
  await vote(alice, sent.poll.id, [1]);
  const changed = await pendingUpdates(platform, bot.token, 2);
  expect(changed.map(updateKinds)).toEqual([['poll'], ['poll_answer']]);
  expect(changed[1].poll_answer.option_ids).toEqual([1]);

  // stopPoll closes it for the room and answers the final state; the bot gets the closed poll.
  await confirmAll(platform, bot.token);
  const stopped = resultOf(await botCall(platform, bot.token, 'stopPoll', { chat_id: chatId, message_id: sent.message_id }));
  expect(stopped).toMatchObject({ id: sent.poll.id, is_closed: true, total_voter_count: 2 });
  expect(stopped.options.map((o: { voter_count: number }) => o.voter_count)).toEqual([0, 2, 0]);
  const seen = await call(platform.chatUrl, 'GET', `/api/v1/polls/${sent.poll.id}`, { token: bob.token });
  expect(seen.body.data).toMatchObject({ closed: true, closedBy: bot.accountId });
  const closed = await pendingUpdates(platform, bot.token, 1);
  expect(closed.map(updateKinds)).toEqual([['poll']]);
  expect(closed[0].poll.is_closed).toBe(true);
});

test('an anonymous poll (the default) gives poll updates only; allowed_updates can leave them out', async () => {
  const { alice, bot, roomId, chatId } = await botInGroup(platform);
  const sent = resultOf(
    await botCall(platform, bot.token, 'sendPoll', { chat_id: chatId, question: 'Lunch?', options: ['Pizza', 'Sushi'] }),
  );
  expect(sent.poll).toMatchObject({ is_anonymous: true, type: 'regular', allows_multiple_answers: false });
  await confirmAll(platform, bot.token);
  await vote(alice, sent.poll.id, [1]);
  const updates = await pendingUpdates(platform, bot.token, 1);
  expect(updates.map(updateKinds)).toEqual([['poll']]);
  expect(updates[0].poll.options[1].voter_count).toBe(1);

  await confirmAll(platform, bot.token);
  resultOf(await botCall(platform, bot.token, 'getUpdates', { allowed_updates: ['message'], timeout: 0 }));
  await vote(alice, sent.poll.id, [0]);
  resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: chatId, text: 'marker' }));
  const command = await call(platform.chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages`, {
    token: alice.token,
    body: { text: '/after' },
  });
  expect(command.status).toBe(201);
  const after = await pendingUpdates(platform, bot.token, 1);
  expect(after.map(updateKinds)).toEqual([['message']]);
});

test('a quiz keeps its correct option for the bot; is_closed sends it closed', async () => {
  const { bot, chatId } = await botInGroup(platform);
  const quiz = resultOf(
    await botCall(platform, bot.token, 'sendPoll', {
      chat_id: chatId,
      question: 'How many eggs do you need for a cake?',
      options: ['1', '2', '4', '20'],
      type: 'quiz',
      correct_option_id: 2,
      explanation: 'Four is the classic',
      is_closed: true,
    }),
  );
  expect(quiz.poll).toMatchObject({
    type: 'quiz',
    correct_option_ids: [2],
    correct_option_id: 2,
    explanation: 'Four is the classic',
    is_closed: true,
  });
  // Bot API 9.6's form: several correct options in a quiz that takes several answers.
  const multi = resultOf(
    await botCall(platform, bot.token, 'sendPoll', {
      chat_id: chatId,
      question: 'Which are prime?',
      options: ['2', '4', '5'],
      type: 'quiz',
      allows_multiple_answers: true,
      correct_option_ids: [0, 2],
    }),
  );
  expect(multi.poll).toMatchObject({ type: 'quiz', correct_option_ids: [0, 2], allows_multiple_answers: true, allows_revoting: true });
});

test('bad input is a 400 naming the parameter, and nothing is stored', async () => {
  const { bot, roomId, chatId } = await botInGroup(platform);
  const base = { chat_id: chatId, question: 'Q?', options: ['a', 'b'] };
  const attempts: Array<[Record<string, unknown>, string | RegExp]> = [
    [{ ...base, options: ['only'] }, /options/],
    [{ ...base, options: Array.from({ length: 11 }, (_, i) => `o${i}`) }, /options/],
    [{ ...base, options: ['Same', ' same '] }, /options\[1\]/],
    [{ ...base, question: '' }, /question/],
    [{ ...base, question: 'q'.repeat(301) }, /question/],
    [{ ...base, open_period: 60 }, /^Bad Request: body.open_period /],
    [{ ...base, close_date: 2_000_000_000 }, /^Bad Request: body.close_date /],
    [{ ...base, options: ['a', '   '] }, /options/],
    [{ ...base, type: 'quiz' }, 'Bad Request: correct_option_ids is required in a quiz'],
    [{ ...base, type: 'quiz', correct_option_id: 2 }, 'Bad Request: correct_option_ids must name options of the poll'],
    [{ ...base, type: 'quiz', correct_option_ids: [0, 0], allows_multiple_answers: true }, /must not repeat/],
    [{ ...base, allows_revoting: false }, /^Bad Request: body.allows_revoting /],
    [{ ...base, options: ['a', '\u0000'] }, /options/],
    [{ ...base, question: 'Q\u0000' }, /question/],
    [{ ...base, type: 'quiz', correct_option_ids: [0, 1] }, /allows_multiple_answers is true/],
    [{ ...base, type: 'survey' }, /type/],
    [{ ...base, chat_id: 999_999_999 }, 'Bad Request: chat not found'],
  ];
  for (const [body, description] of attempts) expectBotError(await botCall(platform, bot.token, 'sendPoll', body), 400, description);
  expect(await pollsIn(roomId)).toBe(0);
  expect(await count(platform.db, 'select count(*) as n from bot_polls where bot_id = $1', [bot.id])).toBe(0);
});

test('stopPoll refuses what is not a poll of the bot, or closed already, and changes nothing', async () => {
  const { alice, bot, roomId, chatId } = await botInGroup(platform);
  const own = resultOf(await botCall(platform, bot.token, 'sendPoll', { chat_id: chatId, question: 'Q?', options: ['a', 'b'] }));
  const text = resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: chatId, text: 'not a poll' }));
  const theirs = await call(platform.chatUrl, 'POST', `/api/v1/rooms/${roomId}/polls`, {
    token: alice.token,
    body: { question: 'Hers?', options: ['x', 'y'] },
  });
  expect(theirs.status).toBe(201);
  const stop = (message_id: number) => botCall(platform, bot.token, 'stopPoll', { chat_id: chatId, message_id });
  expectBotError(await stop(text.message_id), 400, 'Bad Request: message with poll to stop not found');
  expectBotError(await stop(9999), 400, 'Bad Request: message with poll to stop not found');
  const hersSeq = (await platform.db.query('select seq from messages where id = $1', [theirs.body.data.messageId])).rows[0].seq;
  expectBotError(await stop(Number(hersSeq)), 400, "Bad Request: poll can't be stopped: the bot did not send it");
  expectBotError(await botCall(platform, bot.token, 'stopPoll', { chat_id: chatId }), 400, /message_id/);
  expect(await count(platform.db, 'select count(*) as n from polls where room_id = $1 and closed_at is not null', [roomId])).toBe(0);
  resultOf(await stop(own.message_id));
  expectBotError(await stop(own.message_id), 400, 'Bad Request: poll has already been closed');
});

test('form-encoded sendPoll, as typed clients send it: options JSON-encoded, unset parameters as null', async () => {
  const { bot, chatId } = await botInGroup(platform);
  const form = new URLSearchParams({
    chat_id: String(chatId),
    question: 'Form?',
    options: JSON.stringify(['yes', 'no']),
    is_anonymous: 'false',
    open_period: 'null',
    correct_option_id: '',
  });
  const res = await fetch(`${platform.chatUrl}/bot${bot.token}/sendPoll`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
  const body = (await res.json()) as any;
  expect(res.status).toBe(200);
  expect(body.result.poll).toMatchObject({ question: 'Form?', is_anonymous: false, options: [{ text: 'yes' }, { text: 'no' }] });
});

test("a user's poll in a private room reaches the bot as a message with poll, without text", async () => {
  const { tenant, bot } = await botInGroup(platform);
  const erin = await tenant.account({ displayName: 'Erin' });
  const direct = await call(platform.chatUrl, 'POST', '/api/v1/rooms/private', { token: erin.token, body: { accountId: bot.accountId } });
  expect(direct.status).toBe(200);
  const created = await call(platform.chatUrl, 'POST', `/api/v1/rooms/${direct.body.data.id}/polls`, {
    token: erin.token,
    body: { question: 'Tea or coffee?', options: ['Tea', 'Coffee'] },
  });
  expect(created.status).toBe(201);
  const [update] = await pendingUpdates(platform, bot.token, 1);
  expect(update.message.text).toBeUndefined();
  expect(update.message.poll).toEqual({
    id: created.body.data.id,
    question: 'Tea or coffee?',
    options: created.body.data.options.map((o: { id: string; text: string }) => ({ persistent_id: o.id, text: o.text, voter_count: 0 })),
    total_voter_count: 0,
    is_closed: false,
    is_anonymous: true,
    type: 'regular',
    allows_multiple_answers: false,
    allows_revoting: true,
    members_only: false,
  });
  expect(update.message.poll.options.map((o: { text: string }) => o.text)).toEqual(['Tea', 'Coffee']);
  // The bot cannot stop a poll it did not send.
  expectBotError(
    await botCall(platform, bot.token, 'stopPoll', { chat_id: update.message.chat.id, message_id: update.message.message_id }),
    400,
    "Bad Request: poll can't be stopped: the bot did not send it",
  );
});
