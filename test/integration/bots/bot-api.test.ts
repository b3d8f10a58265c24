// The Bot API's contract with Telegram libraries: the envelope on every answer (401 for any token that is not a
// live bot's, 404 for unknown methods, 400 for bad input, which changes nothing), both path shapes, JSON and form
// bodies, update ids and offsets, thread replies, edits and deletions.
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { count } from '../../helpers/expect.js';
import {
  botCall,
  chatNumber,
  createBot,
  expectBotError,
  groupWith,
  pendingUpdates,
  resultOf,
  say,
  userNumber,
  type BotAnswer,
  type TestBot,
  confirmJoined,
} from '../../helpers/bots.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

const methods = [
  'getMe',
  'getUpdates',
  'getWebhookInfo',
  'setWebhook',
  'deleteWebhook',
  'sendMessage',
  'editMessage',
  'editMessageText',
  'deleteMessage',
  'answerCallbackQuery',
];

async function scene(): Promise<{ alice: TestAccount; bot: TestBot; roomId: string }> {
  const tenant = await platform.tenant();
  const alice = await tenant.account({ displayName: 'Alice' });
  const bot = await createBot(platform, tenant);
  const roomId = await groupWith(platform, alice, [bot.accountId]);
  await confirmJoined(platform, bot.token);
  return { alice, bot, roomId };
}

/** Everything a refused call could have changed for the bot and its room. */
async function state(bot: TestBot, roomId: string): Promise<unknown> {
  const { rows } = await platform.db.query(
    `select (select count(*) from messages where room_id = $2)::int as messages,
            (select string_agg(coalesce(text, '-') || coalesce(inline_keyboard::text, ''), '|' order by seq) from messages where room_id = $2) as texts,
            (select count(*) from bot_updates where bot_id = $1)::int as updates,
            (select count(*) from bot_callback_queries where bot_id = $1 and answered_at is not null)::int as answered,
            (select row(webhook_url, webhook_secret, allowed_updates, last_update_id)::text from bots where id = $1) as bot,
            (select count(*) from outbox where payload::text like '%' || $2 || '%' or payload::text like '%' || $1 || '%')::int as events`,
    [bot.id, roomId],
  );
  return rows[0];
}

/** The body a method is called with: none for the get* methods, an empty object for the others. */
const bodyOf = (method: string) => (method.startsWith('get') ? undefined : {});

/**
 * Every method (and an unknown one) in both path shapes with tokens that are no live bot's: unknown, one character
 * too long, the last character changed, and not percent-encoded UTF-8 (in the /bot/<token>/ shape only: in the
 * Telegram shape that is not a URL at all, a case of its own).
 */
function wrongTokenCalls(token: string): Array<{ token: string; method: string; telegram: boolean }> {
  const changedLast = token.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a'));
  const calls = [];
  for (const wrong of ['nope', `${token}x`, changedLast, '%E0%A4%A'])
    for (const method of [...methods, 'noSuchMethod'])
      for (const telegram of [false, true]) if (!(wrong.startsWith('%') && telegram)) calls.push({ token: wrong, method, telegram });
  return calls;
}

describe('tokens and methods', () => {
  test('a token that is not a live bot gets 401 Unauthorized on every method, both path shapes, and nothing more', async () => {
    const { bot } = await scene();
    for (const { token, method, telegram } of wrongTokenCalls(bot.token)) {
      const res = await botCall(platform, token, method, bodyOf(method), { telegram });
      expect({ method, telegram, status: res.status, body: res.body }).toEqual({
        method,
        telegram,
        status: 401,
        body: { ok: false, error_code: 401, description: 'Unauthorized' },
      });
    }
    // An empty token is a wrong one; /bot/getMe (Telegram's shape with no token) names no method under a token.
    expectBotError(await botCall(platform, '', 'getMe'), 401, 'Unauthorized');
    expectBotError(await botCall(platform, '', 'getMe', undefined, { telegram: true }), 404, 'Not Found');
    expectBotError(
      await botCall(platform, '%E0%A4%A', 'getMe', undefined, { telegram: true }),
      400,
      'Bad Request: path is not valid percent-encoded UTF-8',
    );
  });

  test('an unknown method is 404 Not Found in the envelope; a known one with the wrong HTTP method is 405', async () => {
    const { bot } = await scene();
    for (const telegram of [false, true]) {
      expectBotError(await botCall(platform, bot.token, 'getStarGiftsOfTheMoon', {}, { telegram }), 404, 'Not Found');
      expectBotError(await botCall(platform, bot.token, 'sendmessage', {}, { telegram }), 404, 'Not Found');
      expectBotError(await botCall(platform, bot.token, 'getMe/extra', undefined, { telegram }), 404, 'Not Found');
    }
    const wrongVerb = await botCall(platform, bot.token, 'sendMessage', undefined, { httpMethod: 'GET' });
    expectBotError(wrongVerb, 405, 'Method Not Allowed');
    expect(wrongVerb.headers.get('allow')).toBe('POST');
    // Which verbs a published method takes is no secret: 405 comes before the token check.
    expectBotError(await botCall(platform, 'not-a-token', 'sendMessage', undefined, { httpMethod: 'GET' }), 405, 'Method Not Allowed');
    // A segment far longer than a token is no token (not 414).
    expectBotError(await botCall(platform, 'x'.repeat(600), 'getMe', undefined, { telegram: true }), 401, 'Unauthorized');
    expectBotError(await botCall(platform, 'x'.repeat(600), 'getMe'), 401, 'Unauthorized');
  });

  test('the read methods answer GET (as the seed lists them) and POST (as libraries call them)', async () => {
    const { bot } = await scene();
    for (const [httpMethod, body] of [
      ['GET', undefined],
      ['POST', {}],
    ] as const) {
      expect(resultOf(await botCall(platform, bot.token, 'getMe', body, { httpMethod })).username).toBe(bot.username);
      expect(resultOf(await botCall(platform, bot.token, 'getWebhookInfo', body, { httpMethod })).url).toBe('');
      expect(resultOf(await botCall(platform, bot.token, 'getUpdates', body, { httpMethod }))).toEqual([]);
    }
  });

  test('an empty JSON body is a call without parameters: optional ones answer, required ones are named', async () => {
    const { bot } = await scene();
    const empty = (method: string) =>
      call(platform.chatUrl, 'POST', `/bot/${bot.token}/${method}`, { rawBody: '', headers: { 'content-type': 'application/json' } });
    expect(resultOf(await empty('getMe')).username).toBe(bot.username);
    expect(resultOf(await empty('getMyCommands'))).toEqual([]);
    const refused = await empty('sendMessage');
    expectBotError(refused, 400, /chat_id|text/);
  });
});

describe('unknown fields', () => {
  // Found by the contract run: a body with a `__proto__` key (one more unknown field to a method) was refused as not
  // being JSON. The methods ignore unknown fields, as Telegram's do; such keys are dropped by the parser, so they
  // reach nothing (Object.prototype stays as it was).
  test('__proto__ and constructor keys are ignored like any other unknown field', async () => {
    const { bot, roomId } = await scene();
    for (const [method, body] of [
      ['getWebhookInfo', '{"__proto__": [], "x": 1}'],
      ['getMe', '{"constructor": {"prototype": {"polluted": true}}}'],
      ['sendMessage', `{"chat_id": "${roomId}", "text": "hi", "__proto__": {"polluted": true}}`],
    ]) {
      const res = await fetch(`${platform.chatUrl}/bot/${encodeURIComponent(bot.token)}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect({ method, status: res.status, ok: ((await res.json()) as { ok: boolean }).ok }).toEqual({ method, status: 200, ok: true });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('bad input changes nothing and answers the envelope', () => {
  test('every method', async () => {
    const { alice, bot, roomId } = await scene();
    const other = await scene();
    const otherChat = await chatNumber(platform, other.roomId);
    await say(platform, alice, roomId, '/start');
    const mine = resultOf(
      await botCall(platform, bot.token, 'sendMessage', {
        chat_id: roomId,
        text: 'mine',
        reply_markup: { inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] },
      }),
    );
    await say(platform, alice, roomId, 'theirs');
    // The /start update is made by the outbox relay; wait for it so that the snapshot below is settled.
    expect(await pendingUpdates(platform, bot.token)).toHaveLength(1);
    const before = await state(bot, roomId);
    const bad: Array<[string, unknown, number, string | RegExp]> = [
      ['getUpdates', { limit: 0 }, 400, /^Bad Request: body.limit/],
      ['getUpdates', { limit: 101 }, 400, /^Bad Request: body.limit/],
      ['getUpdates', { timeout: -1 }, 400, /^Bad Request: body.timeout/],
      ['getUpdates', { offset: 'abc' }, 400, /^Bad Request: body.offset/],
      ['getUpdates', { offset: 1.5 }, 400, /^Bad Request: body.offset/],
      ['getUpdates', { allowed_updates: 'message' }, 400, /^Bad Request: body.allowed_updates/],
      ['setWebhook', {}, 400, 'Bad Request: body.url is required'],
      ['setWebhook', { url: 'https://example.com/h', secret_token: 'has space' }, 400, /^Bad Request: body.secret_token/],
      ['setWebhook', { url: 'ftp://example.com/h' }, 400, /^Bad Request: bad webhook: /],
      ['setWebhook', { url: 'https://example.com/h', max_connections: 0 }, 400, /^Bad Request: body.max_connections/],
      ['deleteWebhook', { drop_pending_updates: 'yes' }, 400, /^Bad Request: body.drop_pending_updates/],
      ['sendMessage', { chat_id: roomId }, 400, 'Bad Request: body.text is required'],
      ['sendMessage', { chat_id: roomId, text: '' }, 400, /^Bad Request: body.text/],
      ['sendMessage', { chat_id: roomId, text: 'x'.repeat(4097) }, 400, 'Bad Request: message is too long'],
      ['sendMessage', { chat_id: roomId, text: 'nul \u0000' }, 400, /^Bad Request: body.text/],
      ['sendAudio', { chat_id: roomId, audio: 'x', performer: 'nul \u0000' }, 400, /^Bad Request: body.performer/],
      ['sendAudio', { chat_id: roomId, audio: 'x', title: 'nul \u0000' }, 400, /^Bad Request: body.title/],
      [
        'sendMessage',
        { chat_id: roomId, text: 'x', entities: [{ type: 'pre', offset: 0, length: 1, language: 'c\u0000' }] },
        400,
        /^Bad Request: body.entities/,
      ],
      [
        'sendMessage',
        { chat_id: roomId, text: 'x', entities: [{ type: 'text_link', offset: 0, length: 1, url: 'https://a.example/\u0000' }] },
        400,
        /^Bad Request: body.entities/,
      ],
      ['sendMessage', { chat_id: 12345, text: 'x' }, 400, 'Bad Request: chat not found'],
      ['sendMessage', { chat_id: -12345, text: 'x' }, 400, 'Bad Request: chat not found'],
      ['sendMessage', { chat_id: 'not a chat', text: 'x' }, 400, /^Bad Request: body.chat_id/],
      ['sendMessage', { chat_id: 2 ** 60, text: 'x' }, 400, /^Bad Request: body.chat_id/],
      ['sendMessage', { chat_id: other.roomId, text: 'x' }, 400, 'Bad Request: chat not found'],
      ['sendMessage', { chat_id: otherChat, text: 'x' }, 400, 'Bad Request: chat not found'],
      ['sendMessage', { chat_id: -otherChat, text: 'x' }, 400, 'Bad Request: chat not found'],
      ['sendMessage', { chat_id: '00000000-0000-4000-8000-000000000000', text: 'x' }, 400, 'Bad Request: chat not found'],
      ['sendMessage', { chat_id: roomId, text: 'x', reply_to_message_id: 999 }, 400, 'Bad Request: message to be replied not found'],
      ['sendMessage', { chat_id: roomId, text: 'x', message_thread_id: 999 }, 400, 'Bad Request: message thread not found'],
      [
        'sendMessage',
        { chat_id: roomId, text: 'x', reply_markup: { keyboard: [[{ text: 'a', request_contact: true }]] } },
        400,
        /^Bad Request: keyboard button 0\.0: request_contact buttons are not supported/,
      ],
      [
        'sendMessage',
        { chat_id: roomId, text: 'x', reply_markup: { inline_keyboard: [[{ text: 'a', callback_data: 'a', url: 'https://e.com' }]] } },
        400,
        /exactly one of callback_data, url, copy_text/,
      ],
      [
        'sendMessage',
        { chat_id: roomId, text: 'x', reply_markup: { inline_keyboard: [[{ text: 'a' }]] } },
        400,
        /exactly one of callback_data, url, copy_text/,
      ],
      [
        'sendMessage',
        { chat_id: roomId, text: 'x', reply_markup: { inline_keyboard: [[{ text: 'a', callback_data: 'é'.repeat(33) }]] } },
        400,
        /BUTTON_DATA_INVALID/,
      ],
      [
        'sendMessage',
        {
          chat_id: roomId,
          text: 'x',
          reply_markup: { inline_keyboard: [Array.from({ length: 9 }, (_, i) => ({ text: `${i}`, callback_data: `${i}` }))] },
        },
        400,
        /more than 8 buttons/,
      ],
      ['sendMessage', { chat_id: roomId, text: 'x', reply_markup: { inline_keyboard: [[]] } }, 400, /row 0 is empty/],
      ['editMessageText', { chat_id: roomId, text: 'x' }, 400, 'Bad Request: body.message_id is required'],
      ['editMessageText', { chat_id: roomId, message_id: 99, text: 'x' }, 400, 'Bad Request: message to edit not found'],
      ['editMessageText', { chat_id: roomId, message_id: 1, text: 'x' }, 400, "Bad Request: message can't be edited"],
      [
        'editMessage',
        {
          chat_id: roomId,
          message_id: mine.message_id,
          text: 'mine',
          reply_markup: { inline_keyboard: [[{ text: 'A', callback_data: 'a' }]] },
        },
        400,
        /^Bad Request: message is not modified/,
      ],
      ['editMessage', { chat_id: other.roomId, message_id: 1, text: 'x' }, 400, 'Bad Request: chat not found'],
      ['deleteMessage', { chat_id: roomId, message_id: 99 }, 400, 'Bad Request: message to delete not found'],
      ['deleteMessage', { chat_id: roomId, message_id: 1 }, 400, "Bad Request: message can't be deleted"],
      ['deleteMessage', { chat_id: roomId, message_id: '1; drop table bots' }, 400, /^Bad Request: body.message_id/],
      ['answerCallbackQuery', { callback_query_id: '00000000-0000-4000-8000-000000000000' }, 400, /^Bad Request: query is too old/],
      ['answerCallbackQuery', { callback_query_id: 'x' }, 400, /^Bad Request: body.callback_query_id/],
      ['answerCallbackQuery', {}, 400, 'Bad Request: body.callback_query_id is required'],
    ];
    for (const [method, body, status, description] of bad) {
      const res = await botCall(platform, bot.token, method, body);
      try {
        expectBotError(res, status, description);
      } catch (err) {
        throw new Error(`${method} ${JSON.stringify(body).slice(0, 120)}: ${JSON.stringify(res.body)}\n${String(err)}`, { cause: err });
      }
    }
    // Bodies that are not JSON, or too big, or of another type.
    const raw = (rawBody: string, contentType: string) =>
      fetch(`${platform.chatUrl}/bot/${bot.token}/sendMessage`, {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: rawBody,
      }).then(async (r) => ({ status: r.status, body: await r.json(), headers: r.headers }));
    expectBotError(await raw('{"chat_id":', 'application/json'), 400, /^Bad Request: /);
    expectBotError(await raw('chat_id=x', 'text/plain'), 415);
    expectBotError(
      await raw(JSON.stringify({ chat_id: roomId, text: 'x'.repeat(300_000) }), 'application/json'),
      413,
      'Request Entity Too Large',
    );
    expectBotError(await raw('', 'application/json'), 400);
    // A bot answering another bot's press.
    const press = await platform.db.query(
      `insert into bot_callback_queries (id, bot_id, room_id, message_id, account_id, data, created_at)
       select gen_random_uuid(), b.id, $2, m.id, $3, 'a', now() from bots b, messages m where b.id = $1 and m.room_id = $2 and m.seq = $4 returning id`,
      [bot.id, roomId, alice.id, mine.message_id],
    );
    expectBotError(
      await botCall(platform, other.bot.token, 'answerCallbackQuery', { callback_query_id: press.rows[0].id }),
      400,
      /^Bad Request: query is too old/,
    );
    await platform.db.query('delete from bot_callback_queries where id = $1', [press.rows[0].id]);
    expect(await state(bot, roomId)).toEqual(before);
  });
});

describe('bodies and paths', () => {
  test('form bodies: urlencoded and multipart, reply_markup as JSON text; files are refused', async () => {
    const { alice, bot, roomId } = await scene();
    const urlencoded = new URLSearchParams({
      chat_id: roomId,
      text: 'from a form',
      reply_markup: JSON.stringify({ inline_keyboard: [[{ text: 'Go', callback_data: 'go' }]] }),
    });
    const res1 = await fetch(`${platform.chatUrl}/bot${bot.token}/sendMessage`, { method: 'POST', body: urlencoded });
    const sent1 = (await res1.json()) as any;
    expect(sent1).toMatchObject({
      ok: true,
      result: { message_id: 1, text: 'from a form', reply_markup: { inline_keyboard: [[{ text: 'Go', callback_data: 'go' }]] } },
    });
    const form = new FormData();
    form.set('chat_id', roomId);
    form.set('message_id', '1');
    form.set('text', 'edited by multipart');
    const res2 = await fetch(`${platform.chatUrl}/bot${bot.token}/editMessageText`, { method: 'POST', body: form });
    expect(await res2.json()).toMatchObject({
      ok: true,
      result: { message_id: 1, text: 'edited by multipart', edit_date: expect.any(Number) },
    });
    const withFile = new FormData();
    withFile.set('chat_id', roomId);
    withFile.set('text', 'x');
    withFile.set('document', new Blob(['data']), 'a.txt');
    const res3 = await fetch(`${platform.chatUrl}/bot${bot.token}/sendMessage`, { method: 'POST', body: withFile });
    expect(res3.status).toBe(400);
    expect(((await res3.json()) as any).description).toBe(
      'Bad Request: field document is a file; only the send methods of files take files',
    );
    const badNumber = await fetch(`${platform.chatUrl}/bot${bot.token}/deleteMessage`, {
      method: 'POST',
      body: new URLSearchParams({ chat_id: roomId, message_id: 'one' }),
    });
    expect(((await badNumber.json()) as any).description).toMatch(/^Bad Request: body.message_id/);
    await say(platform, alice, roomId, '/start');
    const polled = await fetch(`${platform.chatUrl}/bot${bot.token}/getUpdates`, {
      method: 'POST',
      body: new URLSearchParams({ timeout: '5', allowed_updates: '["message"]' }),
    });
    expect(((await polled.json()) as any).result.map((u: any) => u.message.text)).toEqual(['/start']);
  });

  test("Telegram's parameter rules: null and empty form values mean not given, the query string of a POST, types read from the schema", async () => {
    const { alice, bot, roomId } = await scene();
    const post = (method: string, body: URLSearchParams | null, query = '') =>
      fetch(`${platform.chatUrl}/bot${bot.token}/${method}${query}`, { method: 'POST', body }).then(async (res): Promise<BotAnswer> => ({
        status: res.status,
        body: (await res.json()) as any,
        headers: res.headers,
      }));
    // A typed client sends every optional parameter, unset ones as null or empty; unknown ones are ignored.
    const sent = await post(
      'sendMessage',
      new URLSearchParams({
        chat_id: roomId,
        text: '12345',
        reply_markup: 'null',
        reply_to_message_id: '',
        message_thread_id: 'null',
        reply_parameters: '',
        no_such_parameter: 'x',
      }),
    );
    expect(sent.body).toMatchObject({ ok: true, result: { message_id: 1, text: '12345' } });
    expect(sent.body.result.reply_markup).toBeUndefined();
    // Parameters in the query string of a POST, with no body at all.
    const byQuery = await post('sendMessage', null, `?chat_id=${roomId}&text=${encodeURIComponent('by query')}`);
    expect(byQuery.body).toMatchObject({ ok: true, result: { message_id: 2, text: 'by query' } });
    await say(platform, alice, roomId, '/start');
    const polled = await post('getUpdates', new URLSearchParams({ offset: '', limit: 'null', timeout: '5', allowed_updates: 'null' }));
    expect(polled.body.result.map((u: any) => u.message.text)).toEqual(['/start']);
    expect((await post('deleteWebhook', new URLSearchParams({ drop_pending_updates: 'false' }))).body).toEqual({
      ok: true,
      result: true,
      description: expect.any(String),
    });

    // A required parameter is never "not given"; a value that is not of its type is named. Nothing changes.
    const before = await state(bot, roomId);
    expectBotError(await post('sendMessage', new URLSearchParams({ chat_id: roomId, text: '' })), 400, /^Bad Request: body.text/);
    expectBotError(await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: null }), 400, /^Bad Request: body.text/);
    expectBotError(await post('sendMessage', null, `?chat_id=${roomId}`), 400, 'Bad Request: body.text is required');
    expectBotError(
      await post('deleteWebhook', new URLSearchParams({ drop_pending_updates: 'yes' })),
      400,
      /^Bad Request: body.drop_pending_updates/,
    );
    expectBotError(await post('getUpdates', new URLSearchParams({ limit: 'ten' })), 400, /^Bad Request: body.limit/);
    expect(await state(bot, roomId)).toEqual(before);
  });

  test('update_id grows by one per update; offset confirms by id, by uuid, or keeps the newest with a negative value', async () => {
    const { alice, bot, roomId } = await scene();
    for (const text of ['/a', '/b', '/c', '/d', '/e']) await say(platform, alice, roomId, text);
    const updates = await pendingUpdates(platform, bot.token, 5);
    expect(updates.map((u) => u.message.text)).toEqual(['/a', '/b', '/c', '/d', '/e']);
    // The bot's joining came first (update 1, confirmed by the scene).
    const id = (n: number) => n + 1;
    expect(updates.map((u) => u.update_id)).toEqual([1, 2, 3, 4, 5].map(id));
    expect(updates[0].message.entities).toEqual([{ type: 'bot_command', offset: 0, length: 2 }]);
    // The seed's uuid offset confirms that update and every one before it.
    expect(
      resultOf(await botCall(platform, bot.token, 'getUpdates', undefined, { query: `offset=${updates[1].update_uuid}` })).map(
        (u: any) => u.update_id,
      ),
    ).toEqual([3, 4, 5].map(id));
    expect(resultOf(await botCall(platform, bot.token, 'getUpdates', { offset: id(4), limit: 1 })).map((u: any) => u.update_id)).toEqual([
      id(4),
    ]);
    expect(resultOf(await botCall(platform, bot.token, 'getUpdates', { offset: -1 })).map((u: any) => u.update_id)).toEqual([id(5)]);
    expect(resultOf(await botCall(platform, bot.token, 'getUpdates', { offset: id(6) }))).toEqual([]);
    await say(platform, alice, roomId, '/f');
    const next = await botCall(platform, bot.token, 'getUpdates', { offset: id(6), timeout: 5 });
    expect(resultOf(next).map((u: any) => u.update_id)).toEqual([id(6)]);
    expectBotError(
      await botCall(platform, bot.token, 'getUpdates', undefined, { query: 'offset=not-a-number' }),
      400,
      /^Bad Request: query.offset/,
    );
  });

  test('reply_to_message_id makes a thread reply; editMessageText keeps or replaces the keyboard; deleteMessage recalls', async () => {
    const { alice, bot, roomId } = await scene();
    const root = await say(platform, alice, roomId, `@${bot.username} start a thread`);
    const reply = resultOf(
      await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: 'in the thread', reply_parameters: { message_id: 1 } }),
    );
    expect(reply).toMatchObject({
      message_id: 2,
      message_thread_id: 1,
      is_topic_message: true,
      reply_to_message: {
        message_id: 1,
        text: `@${bot.username} start a thread`,
        from: { id: await userNumber(platform, alice.id), first_name: 'Alice' },
      },
    });
    const stored = await platform.db.query('select thread_root_id from messages where room_id = $1 and seq = 2', [roomId]);
    expect(stored.rows[0].thread_root_id).toBe(root.id);
    // A reply to the reply joins the same thread.
    expect(
      resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: 'again', reply_to_message_id: 2 }))
        .message_thread_id,
    ).toBe(1);
    const keyboard = { inline_keyboard: [[{ text: 'K', callback_data: 'k' }]] };
    const edited = resultOf(
      await botCall(platform, bot.token, 'editMessageText', { chat_id: roomId, message_id: 2, text: 'edited', reply_markup: keyboard }),
    );
    expect(edited).toMatchObject({ text: 'edited', reply_markup: keyboard });
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'message.edited' and payload->>'roomId' = $1", [roomId]),
    ).toBe(1);
    expect(resultOf(await botCall(platform, bot.token, 'deleteMessage', { chat_id: roomId, message_id: 2 }))).toBe(true);
    const recalled = await platform.db.query('select recalled_at, text from messages where room_id = $1 and seq = 2', [roomId]);
    expect(recalled.rows[0]).toMatchObject({ recalled_at: expect.any(Date), text: null });
    expectBotError(
      await botCall(platform, bot.token, 'deleteMessage', { chat_id: roomId, message_id: 2 }),
      400,
      'Bad Request: message to delete not found',
    );
  });

  test("a bot that is an admin of the room may delete other members' messages", async () => {
    const { alice, bot, roomId } = await scene();
    await say(platform, alice, roomId, 'spam');
    expectBotError(
      await botCall(platform, bot.token, 'deleteMessage', { chat_id: roomId, message_id: 1 }),
      400,
      "Bad Request: message can't be deleted",
    );
    await platform.db.query(`update room_members set role = 'ADMIN' where room_id = $1 and account_id = $2`, [roomId, bot.accountId]);
    expect(resultOf(await botCall(platform, bot.token, 'deleteMessage', { chat_id: roomId, message_id: 1 }))).toBe(true);
  });
});
