// editMessageReplyMarkup and editMessageCaption over the chat's message edits: what the user sees through the chat
// API after each, and Telegram's refusals (which change nothing).
import { startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { count } from '../../helpers/expect.js';
import { botInGroup, botCall, expectBotError, resultOf, say, waitForMessage, type BotAnswer } from '../../helpers/bots.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

const press = (label: string) => ({ inline_keyboard: [[{ text: label, callback_data: label.toLowerCase() }]] });

async function sendFile(token: string, chatId: number, caption: string): Promise<BotAnswer> {
  const form = new FormData();
  form.set('chat_id', String(chatId));
  form.set('caption', caption);
  form.set('document', new Blob([Buffer.from('plain words')], { type: 'text/plain' }), 'notes.txt');
  const res = await fetch(`${platform.chatUrl}/bot${token}/sendDocument`, { method: 'POST', body: form });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** The label of the first button of a message as the chat API shows it, or null without a keyboard. */
const firstLabel = (m: any): string | null => m.inlineKeyboard?.[0]?.[0]?.text ?? null;

const stored = async (roomId: string, seq: number) =>
  (
    await platform.db.query<{ text: string; inline_keyboard: unknown; edited_at: Date | null }>(
      'select text, inline_keyboard, edited_at from messages where room_id = $1 and seq = $2',
      [roomId, seq],
    )
  ).rows[0];

test('editMessageReplyMarkup replaces or removes the keyboard the user sees and keeps the text', async () => {
  const { alice, bot, roomId, chatId } = await botInGroup(platform);
  const sent = resultOf(
    await botCall(platform, bot.token, 'sendMessage', { chat_id: chatId, text: 'pick one', reply_markup: press('Yes') }),
  );
  await waitForMessage(platform, alice, roomId, (m) => [m.text, firstLabel(m)].join() === 'pick one,Yes');

  const replaced = resultOf(
    await botCall(platform, bot.token, 'editMessageReplyMarkup', {
      chat_id: chatId,
      message_id: sent.message_id,
      reply_markup: press('No'),
    }),
  );
  expect(replaced).toMatchObject({
    message_id: sent.message_id,
    text: 'pick one',
    reply_markup: press('No'),
    edit_date: expect.any(Number),
  });
  const seen = await waitForMessage(platform, alice, roomId, (m) => firstLabel(m) === 'No');
  expect(seen).toMatchObject({ text: 'pick one', inlineKeyboard: [[{ text: 'No', callbackData: 'no' }]] });
  expect(seen.editedAt).toEqual(expect.any(String));

  // Without reply_markup the keyboard goes, as in Telegram.
  const removed = resultOf(await botCall(platform, bot.token, 'editMessageReplyMarkup', { chat_id: chatId, message_id: sent.message_id }));
  expect(removed.reply_markup).toBeUndefined();
  expect(removed.text).toBe('pick one');
  await waitForMessage(platform, alice, roomId, (m) => [m.text, firstLabel(m)].join() === 'pick one,');
  expect(
    await count(platform.db, "select count(*) as n from outbox where topic = 'message.edited' and payload->>'roomId' = $1", [roomId]),
  ).toBe(2);
});

test('editMessageCaption replaces the caption of a file message the user sees', async () => {
  const { alice, bot, roomId, chatId } = await botInGroup(platform);
  const sent = resultOf(await sendFile(bot.token, chatId, 'first notes'));
  expect(sent.caption).toBe('first notes');

  const edited = resultOf(
    await botCall(platform, bot.token, 'editMessageCaption', {
      chat_id: chatId,
      message_id: sent.message_id,
      caption: 'final notes',
      reply_markup: press('Open'),
    }),
  );
  expect(edited).toMatchObject({ caption: 'final notes', document: { file_name: 'notes.txt' }, reply_markup: press('Open') });
  expect(edited.text).toBeUndefined();
  const seen = await waitForMessage(platform, alice, roomId, (m) => m.text === 'final notes');
  expect(seen.attachments).toHaveLength(1);
  expect(seen.inlineKeyboard).toEqual([[{ text: 'Open', callbackData: 'open' }]]);

  // No caption removes it; the file stays.
  const bare = resultOf(await botCall(platform, bot.token, 'editMessageCaption', { chat_id: chatId, message_id: sent.message_id }));
  expect(bare.caption).toBeUndefined();
  expect(bare.document.file_name).toBe('notes.txt');
  expect((await stored(roomId, sent.message_id))?.text).toBe('');
});

test("refusals in Telegram's words change nothing", async () => {
  const { alice, bot, roomId, chatId } = await botInGroup(platform);
  const text = resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: chatId, text: 'plain', reply_markup: press('Keep') }));
  const file = resultOf(await sendFile(bot.token, chatId, 'a caption'));
  await say(platform, alice, roomId, 'mine');
  const hers = { seq: file.message_id + 1 };
  const before = [await stored(roomId, text.message_id), await stored(roomId, file.message_id), await stored(roomId, hers.seq)];
  const edits = () =>
    count(platform.db, "select count(*) as n from outbox where topic = 'message.edited' and payload->>'roomId' = $1", [roomId]);
  const editsBefore = await edits();

  const cases: Array<[string, Record<string, unknown>, string | RegExp]> = [
    ['editMessageReplyMarkup', { chat_id: chatId }, 'Bad Request: body.message_id is required'],
    ['editMessageReplyMarkup', { chat_id: chatId, message_id: 'x' }, /message_id/],
    ['editMessageReplyMarkup', { chat_id: chatId, message_id: 99 }, 'Bad Request: message to edit not found'],
    ['editMessageReplyMarkup', { chat_id: chatId, message_id: hers.seq, reply_markup: press('A') }, "Bad Request: message can't be edited"],
    ['editMessageReplyMarkup', { chat_id: chatId, message_id: text.message_id, reply_markup: press('Keep') }, /message is not modified/],
    [
      'editMessageReplyMarkup',
      { chat_id: chatId, message_id: text.message_id, reply_markup: { inline_keyboard: 'no' } },
      /inline_keyboard/,
    ],
    ['editMessageReplyMarkup', { chat_id: 424242, message_id: text.message_id }, 'Bad Request: chat not found'],
    [
      'editMessageCaption',
      { chat_id: chatId, message_id: text.message_id, caption: 'x' },
      'Bad Request: there is no caption in the message to edit',
    ],
    ['editMessageCaption', { chat_id: chatId, message_id: file.message_id, caption: 'a caption' }, /message is not modified/],
    ['editMessageCaption', { chat_id: chatId, message_id: file.message_id, caption: 'x'.repeat(4001) }, /caption/],
    ['editMessageCaption', { chat_id: chatId, message_id: file.message_id, caption: { text: 'x' } }, /caption/],
    [
      'editMessageText',
      { chat_id: chatId, message_id: file.message_id, text: 'x' },
      'Bad Request: there is no text in the message to edit',
    ],
  ];
  for (const [method, params, description] of cases) {
    expectBotError(await botCall(platform, bot.token, method, params), 400, description);
  }
  expect([await stored(roomId, text.message_id), await stored(roomId, file.message_id), await stored(roomId, hers.seq)]).toEqual(before);
  expect(await edits()).toBe(editsBefore);
});
