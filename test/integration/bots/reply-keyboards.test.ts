// Reply keyboards, their removal and forced replies: a bot sends them through the Bot API as Telegram bots do, chat
// clients see them on the message view and in the message events, a member's current keyboard follows Telegram's
// rules (replaced, removed, used once, selective), and pressing a button is the member's own message, which the bot
// receives. Refused markup is Telegram's 400 with the reason and writes nothing.
import { messageViews } from '../../../src/chat/realtime/event-message-views.js';
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import {
  botCall,
  botInGroup,
  confirmAll,
  createBot,
  expectBotError,
  pendingUpdates,
  privateRoomWith,
  resultOf,
  say,
  waitForMessage,
} from '../../helpers/bots.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

type Who = { token: string };

async function currentKeyboard(who: Who, roomId: string): Promise<{ status: number; body: any }> {
  return call(platform.chatUrl, 'GET', `/api/v1/rooms/${roomId}/reply-keyboard`, { token: who.token });
}

async function keyboardOf(who: Who, roomId: string): Promise<any> {
  const res = await currentKeyboard(who, roomId);
  expect(res.status).toBe(200);
  return res.body.data;
}

async function privateScene() {
  const tenant = await platform.tenant();
  const alice = await tenant.account({ displayName: 'Alice' });
  const bot = await createBot(platform, tenant);
  const roomId = await privateRoomWith(platform, alice, bot.accountId);
  return { alice, bot, roomId };
}

const messageCount = async (roomId: string) =>
  (await platform.db.query('select count(*)::int as n from messages where room_id = $1', [roomId])).rows[0].n as number;

test('a reply keyboard reaches the chat client and stays the member keyboard; a press is an ordinary message the bot receives', async () => {
  const { alice, bot, roomId } = await privateScene();
  const markup = {
    keyboard: [['Yes', { text: 'No' }], [{ text: 'New poll', request_poll: { type: 'quiz' } }]],
    one_time_keyboard: true,
    resize_keyboard: true,
    is_persistent: true,
    input_field_placeholder: 'Yes or no?',
  };
  // Telegram's path and a JSON body, as a library sends it.
  const sent = resultOf(
    await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: 'Agree?', reply_markup: markup }, { telegram: true }),
  );
  expect(sent.text).toBe('Agree?');
  // Telegram's Message carries inline keyboards only.
  expect(sent.reply_markup).toBeUndefined();

  const shown = {
    kind: 'keyboard',
    keyboard: [[{ text: 'Yes' }, { text: 'No' }], [{ text: 'New poll', requestPoll: { type: 'quiz' } }]],
    persistent: true,
    resize: true,
    oneTime: true,
    inputFieldPlaceholder: 'Yes or no?',
    selective: false,
  };
  const seen = await waitForMessage(platform, alice, roomId, (m) => m.text === 'Agree?');
  expect(seen.replyMarkup).toEqual(shown);
  expect(seen.inlineKeyboard).toBeUndefined();
  // The message events carry the same view.
  const events = await messageViews(platform.db as never, [seen.id]);
  expect(events.get(seen.id)?.view.replyMarkup).toEqual(shown);
  expect(await keyboardOf(alice, roomId)).toEqual({ messageId: seen.id, keyboard: shown });

  // Another text is no use of the keyboard; pressing "No" sends its text, and the one-time keyboard ends.
  await confirmAll(platform, bot.token);
  await say(platform, alice, roomId, 'hmm');
  expect((await keyboardOf(alice, roomId)).messageId).toBe(seen.id);
  await say(platform, alice, roomId, 'No');
  const updates = await pendingUpdates(platform, bot.token, 2);
  expect(updates.map((u) => u.message?.text)).toEqual(['hmm', 'No']);
  expect(updates[1].message.from.first_name).toBe('Alice');
  expect(await keyboardOf(alice, roomId)).toEqual({ messageId: null, keyboard: null });
});

test('a later keyboard replaces it, a forced reply leaves it, a removal ends it, and a recalled message no longer counts', async () => {
  const { alice, bot, roomId } = await privateScene();
  const send = async (text: string, reply_markup: unknown) =>
    resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text, reply_markup }));
  await send('first', { keyboard: [['A']] });
  const second = await send('second', { keyboard: [['B']], is_persistent: false });
  const secondView = await waitForMessage(platform, alice, roomId, (m) => m.text === 'second');
  expect((await keyboardOf(alice, roomId)).keyboard.keyboard).toEqual([[{ text: 'B' }]]);
  // Without one_time_keyboard, using it keeps it.
  await say(platform, alice, roomId, 'B');
  expect((await keyboardOf(alice, roomId)).messageId).toBe(secondView.id);

  await send('say more', { force_reply: true, input_field_placeholder: 'More...' });
  const forced = await waitForMessage(platform, alice, roomId, (m) => m.text === 'say more');
  expect(forced.replyMarkup).toEqual({ kind: 'forceReply', inputFieldPlaceholder: 'More...', selective: false });
  expect((await keyboardOf(alice, roomId)).messageId).toBe(secondView.id);

  // Recalling the second message brings back the first keyboard.
  resultOf(await botCall(platform, bot.token, 'deleteMessage', { chat_id: roomId, message_id: second.message_id }));
  expect((await keyboardOf(alice, roomId)).keyboard.keyboard).toEqual([[{ text: 'A' }]]);

  await send('bye', { remove_keyboard: true });
  const removed = await waitForMessage(platform, alice, roomId, (m) => m.text === 'bye');
  expect(removed.replyMarkup).toEqual({ kind: 'removeKeyboard', selective: false });
  expect(await keyboardOf(alice, roomId)).toEqual({ messageId: null, keyboard: null });
});

test('selective markup applies to the members mentioned and to the sender of the message replied to', async () => {
  const { alice, bob, bot, roomId } = await botInGroup(platform);
  await platform.db.query(`update accounts set username = 'bob_r' where id = $1`, [bob.id]);
  // No keyboard for anyone yet; a stranger is refused.
  expect(await keyboardOf(alice, roomId)).toEqual({ messageId: null, keyboard: null });
  const stranger = await (await platform.tenant()).account();
  expect((await currentKeyboard(stranger, roomId)).status).toBe(404);

  resultOf(
    await botCall(platform, bot.token, 'sendMessage', {
      chat_id: roomId,
      text: '@bob_r pick one',
      reply_markup: { keyboard: [['1', '2']], selective: true },
    }),
  );
  const toBob = await waitForMessage(platform, alice, roomId, (m) => m.text === '@bob_r pick one');
  expect(toBob.replyMarkup).toMatchObject({ kind: 'keyboard', selective: true, recipients: [bob.id] });
  expect((await keyboardOf(bob, roomId)).messageId).toBe(toBob.id);
  expect((await keyboardOf(alice, roomId)).keyboard).toBeNull();

  // A selective removal in reply to Alice's message: hers only, so Bob keeps his keyboard.
  await say(platform, alice, roomId, '/start');
  const [{ rows }] = [await platform.db.query('select seq from messages where room_id = $1 and text = $2', [roomId, '/start'])];
  resultOf(
    await botCall(platform, bot.token, 'sendMessage', {
      chat_id: roomId,
      text: 'done',
      reply_to_message_id: Number(rows[0].seq),
      reply_markup: { remove_keyboard: true, selective: true },
    }),
  );
  expect((await keyboardOf(bob, roomId)).messageId).toBe(toBob.id);
  const { rows: removal } = await platform.db.query(
    `select reply_markup, thread_root_id is not null as in_thread from messages where room_id = $1 and text = 'done'`,
    [roomId],
  );
  expect(removal).toEqual([{ reply_markup: { kind: 'remove_keyboard', selective: true, recipients: [alice.id] }, in_thread: true }]);
});

test('refused markup is Telegram 400 with the reason, and nothing is sent', async () => {
  const { bot, roomId } = await privateScene();
  const before = await messageCount(roomId);
  const hundredAndOne = [...Array.from({ length: 10 }, (_, r) => Array.from({ length: 10 }, (_, b) => `${r}.${b}`)), ['last']];
  const refused: Array<[unknown, string | RegExp]> = [
    ['no', 'Bad Request: object expected as reply markup'],
    [
      {},
      "Bad Request: can't parse reply keyboard markup JSON object: it needs one of inline_keyboard, keyboard, remove_keyboard, force_reply",
    ],
    [
      { keyboard: [['A']], inline_keyboard: [[{ text: 'B', callback_data: 'b' }]] },
      "Bad Request: can't parse reply keyboard markup JSON object: inline_keyboard and keyboard can't be used together",
    ],
    [{ keyboard: [] }, 'Bad Request: field "keyboard" must be a non-empty Array of button rows'],
    [{ keyboard: [['A'], []] }, 'Bad Request: keyboard row 1 is empty'],
    [{ keyboard: ['A'] }, 'Bad Request: keyboard row 0 must be an Array of buttons'],
    [{ keyboard: [Array.from({ length: 13 }, () => 'x')] }, 'Bad Request: keyboard row 0 has more than 12 buttons'],
    [{ keyboard: hundredAndOne }, 'Bad Request: REPLY_MARKUP_TOO_LONG: a keyboard has at most 100 buttons'],
    [{ keyboard: [[5]] }, 'Bad Request: keyboard button 0.0 must be a String or a KeyboardButton'],
    [{ keyboard: [[{ text: '' }]] }, 'Bad Request: text of keyboard button 0.0 must be 1 to 256 characters'],
    [
      { keyboard: [['A', { text: 'Phone', request_contact: true }]] },
      'Bad Request: keyboard button 0.1: request_contact buttons are not supported: the platform shares no phone numbers with bots',
    ],
    [
      { keyboard: [[{ text: 'Where', request_location: true }]] },
      'Bad Request: keyboard button 0.0: request_location buttons are not supported: the platform shares no locations with bots',
    ],
    [
      { keyboard: [[{ text: 'Pick', request_users: { request_id: 1 } }]] },
      'Bad Request: keyboard button 0.0: request_users buttons are not supported: the platform does not share users with bots',
    ],
    [
      { keyboard: [[{ text: 'App', web_app: { url: 'https://example.com' } }]] },
      'Bad Request: keyboard button 0.0: web_app buttons are not supported: the platform has no Web Apps',
    ],
    [
      { keyboard: [[{ text: 'Poll', request_poll: { type: 'survey' } }]] },
      'Bad Request: request_poll of keyboard button 0.0 must be an object whose type is quiz or regular',
    ],
    [{ keyboard: [['A']], one_time_keyboard: 'yes' }, 'Bad Request: field "one_time_keyboard" must be of type Boolean'],
    [{ keyboard: [['A']], input_field_placeholder: 'x'.repeat(65) }, 'Bad Request: input_field_placeholder must be 1 to 64 characters'],
    [{ remove_keyboard: false }, 'Bad Request: field "remove_keyboard" must be true'],
    [{ force_reply: true, selective: 1 }, 'Bad Request: field "selective" must be of type Boolean'],
    [{ inline_keyboard: [] }, 'Bad Request: field "inline_keyboard" must be a non-empty Array of button rows'],
    [{ inline_keyboard: [['A']] }, 'Bad Request: inline keyboard button 0.0 must be an InlineKeyboardButton object'],
    [{ inline_keyboard: [[{ text: 'A' }]] }, /^Bad Request: button 0\.0 must have exactly one of callback_data, url/],
  ];
  for (const [reply_markup, description] of refused) {
    const res = await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: 'x', reply_markup });
    expectBotError(res, 400, description);
  }
  // A form body, as node-telegram-bot-api sends one: reply_markup JSON-encoded.
  const form = await fetch(`${platform.chatUrl}/bot${bot.token}/sendMessage`, {
    method: 'POST',
    body: new URLSearchParams({ chat_id: roomId, text: 'x', reply_markup: JSON.stringify({ keyboard: [['A']], force_reply: true }) }),
  });
  expectBotError(
    { status: form.status, headers: form.headers, body: await form.json() },
    400,
    "Bad Request: can't parse reply keyboard markup JSON object: keyboard and force_reply can't be used together",
  );
  // A file send takes the same markup, and refuses it the same way.
  const file = await botCall(platform, bot.token, 'sendDocument', { chat_id: roomId, document: 'Fnone', reply_markup: { keyboard: [[]] } });
  expectBotError(file, 400, 'Bad Request: keyboard row 0 is empty');
  expect(await messageCount(roomId)).toBe(before);

  // The edits take inline keyboards only.
  const sent = resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: 'keep' }));
  const edit = await botCall(platform, bot.token, 'editMessageReplyMarkup', {
    chat_id: roomId,
    message_id: sent.message_id,
    reply_markup: { keyboard: [['A']] },
  });
  expectBotError(edit, 400, 'Bad Request: inline keyboard expected');
  const { rows } = await platform.db.query(
    `select reply_markup, inline_keyboard, edited_at from messages where room_id = $1 and text = 'keep'`,
    [roomId],
  );
  expect(rows).toEqual([{ reply_markup: null, inline_keyboard: null, edited_at: null }]);
});
