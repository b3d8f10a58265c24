// Formatting through the Bot API: parse_mode (HTML, MarkdownV2, Markdown) and explicit entities become the text the
// user sees plus formatting spans on the chat's message view, and come back to the bot as entities; bad markup,
// an unknown parse_mode and texts too long after parsing get Telegram's 400 and change nothing.
import { call, type TestPlatform } from '../../support/platform.js';
import { count } from '../../helpers/expect.js';
import { botCall, confirmAll, expectBotError, pendingUpdates, resultOf, say, userNumber, waitForMessage } from '../../helpers/bots.js';
import { botWithAlice, bytes, multipart, storage, useFilesPlatform } from './file-helpers.js';

const started = useFilesPlatform({ uploadMaxBytes: 32 * 1024 });
let platform: TestPlatform;
beforeAll(() => {
  platform = started();
});

const byId = (id: string) => (m: { id: string }) => m.id === id;
const unformatted = (id: string) => (m: { id: string; formatting?: unknown }) => m.id === id && m.formatting === undefined;

/** The chat's id of a message the bot sent, by its message_id (the room's sequence number). */
const messageIdOf = async (roomId: string, seq: number): Promise<string> =>
  (await platform.db.query('select id from messages where room_id = $1 and seq = $2', [roomId, seq])).rows[0].id;

test('HTML: the user sees the text without markup, with its formatting; the bot gets the entities back', async () => {
  const { alice, bot, roomId } = await botWithAlice(platform);
  const html =
    '<b>bold</b> &amp; <i>it</i> <a href="https://example.com/a?b=1&amp;c=2">link</a> <tg-spoiler>hidden</tg-spoiler>\n' +
    '<pre><code class="language-python">print(1)</code></pre>\n<blockquote expandable>long quote</blockquote>';
  const sent = resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: html, parse_mode: 'HTML' }));
  const text = 'bold & it link hidden\nprint(1)\nlong quote';
  expect(sent.text).toBe(text);
  expect(sent.entities).toEqual([
    { type: 'bold', offset: 0, length: 4 },
    { type: 'italic', offset: 7, length: 2 },
    { type: 'text_link', offset: 10, length: 4, url: 'https://example.com/a?b=1&c=2' },
    { type: 'spoiler', offset: 15, length: 6 },
    { type: 'pre', offset: 22, length: 8, language: 'python' },
    { type: 'expandable_blockquote', offset: 31, length: 10 },
  ]);

  const seen = await waitForMessage(platform, alice, roomId, byId(await messageIdOf(roomId, sent.message_id)));
  expect(seen.text).toBe(text);
  expect(seen.formatting).toEqual(sent.entities);
  expect(seen.entities).toEqual([]);

  // A user's forward of it keeps the formatting.
  const saved = (await call(platform.chatUrl, 'POST', '/api/v1/rooms/self', { token: alice.token })).body.data.id;
  const forward = await call(platform.chatUrl, 'POST', `/api/v1/rooms/${saved}/forward`, {
    token: alice.token,
    body: { fromRoomId: roomId, messageIds: [seen.id] },
  });
  expect(forward.status).toBe(200);
  expect([forward.body.data[0].text, forward.body.data[0].formatting]).toEqual([text, sent.entities]);
});

test('MarkdownV2 in a urlencoded form: offsets count UTF-16 code units, escapes are gone', async () => {
  const { alice, bot, roomId } = await botWithAlice(platform);
  const form = new URLSearchParams({ chat_id: roomId, parse_mode: 'MarkdownV2', text: '👍 *bold _both_* \\_x\\_ ||s|| `a\\`b`' });
  const res = await fetch(`${platform.chatUrl}/bot${bot.token}/sendMessage`, { method: 'POST', body: form });
  const sent = resultOf({ status: res.status, body: await res.json(), headers: res.headers });
  expect(sent.text).toBe('👍 bold both _x_ s a`b');
  expect(sent.entities).toEqual([
    { type: 'bold', offset: 3, length: 9 },
    { type: 'italic', offset: 8, length: 4 },
    { type: 'spoiler', offset: 17, length: 1 },
    { type: 'code', offset: 19, length: 3 },
  ]);
  const seen = await waitForMessage(platform, alice, roomId, (m) => m.text === sent.text);
  expect(seen.formatting).toEqual(sent.entities);
});

test('explicit entities: kept as given; a text_mention names a member of the room, anyone else stays plain text', async () => {
  const { tenant, alice, bot, roomId } = await botWithAlice(platform);
  const stranger = await tenant.account({ displayName: 'Stranger' });
  const [aliceNumber, strangerNumber] = await Promise.all([userNumber(platform, alice.id), userNumber(platform, stranger.id)]);
  const entities = [
    { type: 'underline', offset: 0, length: 5 },
    { type: 'text_mention', offset: 6, length: 5, user: { id: aliceNumber, is_bot: false, first_name: 'whatever' } },
    { type: 'text_mention', offset: 12, length: 8, user: { id: strangerNumber } },
    { type: 'hashtag', offset: 21, length: 4 },
  ];
  const sent = resultOf(
    await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: 'Hello Alice Stranger #tag', entities }),
  );
  expect(sent.entities).toEqual([
    { type: 'underline', offset: 0, length: 5 },
    { type: 'text_mention', offset: 6, length: 5, user: { id: aliceNumber, is_bot: false, first_name: 'Alice' } },
  ]);
  const seen = await waitForMessage(platform, alice, roomId, (m) => m.text === 'Hello Alice Stranger #tag');
  expect(seen.formatting).toEqual([
    { type: 'underline', offset: 0, length: 5 },
    { type: 'text_mention', offset: 6, length: 5, accountId: alice.id },
  ]);
});

test('a plain send stores no formatting, and commands and mentions are still found', async () => {
  const { alice, bot, roomId } = await botWithAlice(platform);
  const sent = resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: '<b>not markup</b> /help' }));
  expect(sent.text).toBe('<b>not markup</b> /help');
  expect(sent.entities).toEqual([{ type: 'bot_command', offset: 18, length: 5 }]);
  const seen = await waitForMessage(platform, alice, roomId, (m) => m.text === sent.text);
  expect(seen.formatting).toBeUndefined();
  expect(await count(platform.db, 'select count(*) as n from messages where room_id = $1 and formatting is not null', [roomId])).toBe(0);
});

test("bad markup, an unknown parse_mode and empty or too long texts: Telegram's 400, nothing sent", async () => {
  const { bot, roomId } = await botWithAlice(platform);
  const before = await storage(platform, bot.accountId);
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ text: '<b>bold', parse_mode: 'HTML' }, `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "b"`],
    [{ text: 'a <x>b</x>', parse_mode: 'HTML' }, `Bad Request: can't parse entities: Unsupported start tag "x" at byte offset 2`],
    [
      { text: 'é <b>x</i>', parse_mode: 'html' },
      `Bad Request: can't parse entities: Unmatched end tag at byte offset 7, expected "</b>", found "</i>"`,
    ],
    [
      { text: 'price 1.5', parse_mode: 'MarkdownV2' },
      `Bad Request: can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\'`,
    ],
    [
      { text: '*bold', parse_mode: 'Markdown' },
      `Bad Request: can't parse entities: Can't find end of the entity starting at byte offset 0`,
    ],
    [{ text: 'x', parse_mode: 'BBCode' }, 'Bad Request: unsupported parse_mode'],
    [{ text: '<b></b>', parse_mode: 'HTML' }, 'Bad Request: message text is empty'],
    [{ text: '<b>' + 'x'.repeat(4097) + '</b>', parse_mode: 'HTML' }, 'Bad Request: message is too long'],
    [
      { text: 'x', entities: [{ type: 'text_link', offset: 0, length: 1 }] },
      `Bad Request: can't parse entities: Wrong URL for a text link entity`,
    ],
  ];
  for (const [params, description] of cases) {
    expectBotError(await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, ...params }), 400, description);
  }
  expect(await storage(platform, bot.accountId)).toEqual(before);

  // 4096 characters after parsing are taken, however long the markup.
  const long = resultOf(
    await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: `<b>${'x'.repeat(4096)}</b>`, parse_mode: 'HTML' }),
  );
  expect(long.text).toHaveLength(4096);
  expect(long.entities).toEqual([{ type: 'bold', offset: 0, length: 4096 }]);
});

test('captions: parse_mode on an uploaded file, 1024 characters after parsing, bad markup stores no file', async () => {
  const { alice, bot, roomId } = await botWithAlice(platform);
  const sent = resultOf(
    await multipart(platform, bot.token, 'sendDocument', {
      chat_id: roomId,
      caption: '*Report* for _May_',
      parse_mode: 'Markdown',
      document: { data: bytes(10), name: 'report.txt', type: 'text/plain' },
    }),
  );
  expect(sent).toMatchObject({ caption: 'Report for May', document: { file_name: 'report.txt' } });
  expect(sent.caption_entities).toEqual([
    { type: 'bold', offset: 0, length: 6 },
    { type: 'italic', offset: 11, length: 3 },
  ]);
  const seen = await waitForMessage(platform, alice, roomId, (m) => m.text === 'Report for May');
  expect(seen.formatting).toEqual(sent.caption_entities);
  expect(seen.attachments).toHaveLength(1);

  const before = await storage(platform, bot.accountId);
  const refused: Array<[Record<string, string>, string]> = [
    [{ caption: '<b>open', parse_mode: 'HTML' }, `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "b"`],
    [{ caption: `<i>${'x'.repeat(1025)}</i>`, parse_mode: 'HTML' }, 'Bad Request: message caption is too long'],
  ];
  for (const [fields, description] of refused) {
    const answer = await multipart(platform, bot.token, 'sendPhoto', {
      chat_id: roomId,
      ...fields,
      photo: { data: bytes(10), name: 'p.png', type: 'image/png' },
    });
    expectBotError(answer, 400, description);
  }
  expect(await storage(platform, bot.accountId)).toEqual(before);
  const exact = resultOf(
    await multipart(platform, bot.token, 'sendDocument', {
      chat_id: roomId,
      caption: `<i>${'x'.repeat(1024)}</i>`,
      parse_mode: 'HTML',
      document: { data: bytes(10), name: 'long.txt', type: 'text/plain' },
    }),
  );
  expect(exact.caption).toHaveLength(1024);
});

test('sendMediaGroup: each caption formatted; bad markup in any item sends and stores nothing', async () => {
  const { bot, roomId } = await botWithAlice(platform);
  const before = await storage(platform, bot.accountId);
  const bad = [
    { type: 'document', media: 'attach://one', caption: '<b>fine</b>', parse_mode: 'HTML' },
    { type: 'document', media: 'attach://two', caption: '<b>broken', parse_mode: 'HTML' },
  ];
  const parts = {
    one: { data: bytes(10), name: 'one.txt', type: 'text/plain' },
    two: { data: bytes(12), name: 'two.txt', type: 'text/plain' },
  };
  expectBotError(
    await multipart(platform, bot.token, 'sendMediaGroup', { chat_id: roomId, media: JSON.stringify(bad), ...parts }),
    400,
    `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "b"`,
  );
  expect(await storage(platform, bot.accountId)).toEqual(before);

  const good = [
    { type: 'document', media: 'attach://one', caption: '<b>first</b>', parse_mode: 'HTML' },
    { type: 'document', media: 'attach://two', caption: 'second', caption_entities: [{ type: 'italic', offset: 0, length: 6 }] },
  ];
  const album = resultOf(
    await multipart(platform, bot.token, 'sendMediaGroup', { chat_id: roomId, media: JSON.stringify(good), ...parts }),
  );
  expect(album.map((m: any) => [m.caption, m.caption_entities])).toEqual([
    ['first', [{ type: 'bold', offset: 0, length: 5 }]],
    ['second', [{ type: 'italic', offset: 0, length: 6 }]],
  ]);
});

test('edits replace the formatting with the text; bad markup in an edit changes nothing', async () => {
  const { alice, bot, roomId } = await botWithAlice(platform);
  const sent = resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: '<b>v1</b>', parse_mode: 'HTML' }));
  const id = await messageIdOf(roomId, sent.message_id);
  const edit = (params: Record<string, unknown>) =>
    botCall(platform, bot.token, 'editMessageText', { chat_id: roomId, message_id: sent.message_id, ...params });

  expectBotError(
    await edit({ text: '<i>v2', parse_mode: 'HTML' }),
    400,
    `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "i"`,
  );
  const unchanged = await waitForMessage(platform, alice, roomId, byId(id));
  expect([unchanged.text, unchanged.editedAt, unchanged.formatting]).toEqual(['v1', null, [{ type: 'bold', offset: 0, length: 2 }]]);

  // The same text with other formatting is a change.
  const italic = resultOf(await edit({ text: '_v1_', parse_mode: 'MarkdownV2' }));
  expect(italic.entities).toEqual([{ type: 'italic', offset: 0, length: 2 }]);
  expectBotError(await edit({ text: '_v1_', parse_mode: 'MarkdownV2' }), 400, /^Bad Request: message is not modified/);
  const plain = resultOf(await edit({ text: 'v1' }));
  expect(plain.entities).toBeUndefined();
  const seen = await waitForMessage(platform, alice, roomId, unformatted(id));
  expect(seen.editedAt).toEqual(expect.any(String));

  const file = resultOf(
    await multipart(platform, bot.token, 'sendDocument', {
      chat_id: roomId,
      document: { data: bytes(8), name: 'f.txt', type: 'text/plain' },
    }),
  );
  const captioned = resultOf(
    await botCall(platform, bot.token, 'editMessageCaption', {
      chat_id: roomId,
      message_id: file.message_id,
      caption: 'see ~this~',
      parse_mode: 'MarkdownV2',
    }),
  );
  expect([captioned.caption, captioned.caption_entities]).toEqual(['see this', [{ type: 'strikethrough', offset: 4, length: 4 }]]);
});

test('copyMessage keeps the formatting; a new caption of a file message is parsed', async () => {
  const { alice, bot, roomId } = await botWithAlice(platform);
  const text = resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: '<u>under</u>', parse_mode: 'HTML' }));
  const copy = resultOf(
    await botCall(platform, bot.token, 'copyMessage', { chat_id: roomId, from_chat_id: roomId, message_id: text.message_id }),
  );
  const seenCopy = await waitForMessage(platform, alice, roomId, byId(await messageIdOf(roomId, copy.message_id)));
  expect([seenCopy.text, seenCopy.formatting]).toEqual(['under', [{ type: 'underline', offset: 0, length: 5 }]]);

  const file = resultOf(
    await multipart(platform, bot.token, 'sendDocument', {
      chat_id: roomId,
      caption: 'old',
      document: { data: bytes(8), name: 'c.txt', type: 'text/plain' },
    }),
  );
  const params = { chat_id: roomId, from_chat_id: roomId, message_id: file.message_id };
  expectBotError(
    await botCall(platform, bot.token, 'copyMessage', { ...params, caption: '<s>x', parse_mode: 'HTML' }),
    400,
    `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "s"`,
  );
  const recaptioned = resultOf(await botCall(platform, bot.token, 'copyMessage', { ...params, caption: '<s>new</s>', parse_mode: 'HTML' }));
  const seen = await waitForMessage(platform, alice, roomId, byId(await messageIdOf(roomId, recaptioned.message_id)));
  expect([seen.text, seen.formatting, seen.attachments.length]).toEqual(['new', [{ type: 'strikethrough', offset: 0, length: 3 }], 1]);
});

test("updates: a reply to the bot's formatted message carries its entities in reply_to_message", async () => {
  const { alice, bot, roomId } = await botWithAlice(platform);
  const sent = resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: '*Pick* one', parse_mode: 'Markdown' }));
  await confirmAll(platform, bot.token);
  await say(platform, alice, roomId, `@${bot.username} the first`, { threadRootId: await messageIdOf(roomId, sent.message_id) });
  const [update] = await pendingUpdates(platform, bot.token);
  expect(update.message.reply_to_message).toMatchObject({
    message_id: sent.message_id,
    text: 'Pick one',
    entities: [{ type: 'bold', offset: 0, length: 4 }],
  });
});

test("sendPoll: the question's markup is parsed away, the explanation keeps its formatting; bad markup creates no poll", async () => {
  const { alice, bot, roomId } = await botWithAlice(platform);
  const quiz = {
    chat_id: roomId,
    question: '<b>How many</b> eggs?',
    question_parse_mode: 'HTML',
    options: ['2', '4'],
    type: 'quiz',
    correct_option_id: 1,
    explanation: '*Four* is the classic',
    explanation_parse_mode: 'MarkdownV2',
  };
  expectBotError(
    await botCall(platform, bot.token, 'sendPoll', { ...quiz, explanation: 'Four is 4.0' }),
    400,
    `Bad Request: can't parse entities: Character '.' is reserved and must be escaped with the preceding '\\'`,
  );
  expect(await count(platform.db, 'select count(*) as n from polls where room_id = $1', [roomId])).toBe(0);

  const sent = resultOf(await botCall(platform, bot.token, 'sendPoll', quiz));
  expect(sent.poll).toMatchObject({
    question: 'How many eggs?',
    explanation: 'Four is the classic',
    explanation_entities: [{ type: 'bold', offset: 0, length: 4 }],
  });
  const seen = await waitForMessage(platform, alice, roomId, (m) => m.type === 'POLL');
  expect(seen.text).toBe('How many eggs?');
});
