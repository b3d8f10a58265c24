// Bot administration over the real chat listener: who creates, sees and manages bots, the token shown once and
// stored only as a hash, soft deletion, token regeneration, the read-all switch, webhook URL rules, and button
// presses. Refused calls change nothing.
import { createHash } from 'node:crypto';
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../../test/support/platform.js';
import { count, expectError, expectOk } from '../../../test/helpers/expect.js';
import { chatNextCursor, cursorParam, walkPages } from '../../../test/helpers/paging.js';
import {
  botCall,
  botUsername,
  chatNumber,
  confirmJoined,
  createBot,
  expectBotError,
  groupWith,
  pendingUpdates,
  privateRoomWith,
  resultOf,
  say,
  userNumber,
} from '../../../test/helpers/bots.js';

let platform: TestPlatform;
let admin: string;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
  admin = await platform.adminToken();
});
afterAll(async () => {
  await platform?.stop();
});

const api = (token: string, method: string, path: string, body?: unknown) =>
  call(platform.chatUrl, method, `/api/v1${path}`, { token, ...(body === undefined ? {} : { body }) });
const botRows = () => count(platform.db, 'select count(*) as n from bots');
const accountRows = () => count(platform.db, 'select count(*) as n from accounts');

describe('createBot', () => {
  test('makes a BOT account in the named module and customer; the token is answered once and only its hash is kept', async () => {
    const tenant = await platform.tenant();
    const username = botUsername();
    const res = await api(admin, 'POST', '/bots', {
      username,
      displayName: '  Helper  ',
      description: 'Helps',
      moduleCode: tenant.moduleCode,
      customerAccountId: tenant.customer,
    });
    expectOk(res);
    const { bot, token } = res.body.data;
    expect(bot).toMatchObject({
      username,
      displayName: 'Helper',
      description: 'Helps',
      moduleCode: tenant.moduleCode,
      customerAccountId: tenant.customer,
      webhook: null,
      readAllRoomIds: [],
      pendingUpdateCount: 0,
    });
    expect(token).toMatch(/^[1-9][0-9]*:[A-Za-z0-9_-]{43}$/);
    expect(token.split(':')[0]).toBe(String(await userNumber(platform, bot.accountId)));
    const { rows } = await platform.db.query(
      'select a.account_type, a.status, a.module_code, a.customer_account_id, b.token_hash from bots b join accounts a on a.id = b.account_id where b.id = $1',
      [bot.id],
    );
    expect(rows[0]).toMatchObject({
      account_type: 'BOT',
      status: 'ACTIVE',
      module_code: tenant.moduleCode,
      customer_account_id: tenant.customer,
    });
    expect(Buffer.compare(rows[0].token_hash, createHash('sha256').update(token).digest())).toBe(0);
    const secret = token.split(':')[1];
    expect(await count(platform.db, 'select count(*) as n from bots b where b::text like $1', [`%${secret}%`])).toBe(0);
    // Never again: reads show no token.
    const member = await tenant.account();
    expect(JSON.stringify((await api(member.token, 'GET', `/bots/${bot.id}`)).body)).not.toContain(secret);
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'bot.created' and payload->>'botId' = $1", [bot.id]),
    ).toBe(1);
  });

  test('an unknown module, a taken username (in any case) and a malformed one are refused and change nothing', async () => {
    const tenant = await platform.tenant();
    const taken = await createBot(platform, tenant);
    const [bots, accounts] = [await botRows(), await accountRows()];
    expectError(
      await api(admin, 'POST', '/bots', {
        username: botUsername(),
        displayName: 'X',
        moduleCode: 'nosuchmodule',
        customerAccountId: tenant.customer,
      }),
      400,
      'validation_failed',
      'body.moduleCode',
    );
    expectError(
      await api(admin, 'POST', '/bots', {
        username: taken.username.toUpperCase(),
        displayName: 'X',
        moduleCode: tenant.moduleCode,
        customerAccountId: tenant.customer,
      }),
      409,
      'username_taken',
    );
    for (const username of ['ab', '1starts_with_digit', 'has space', 'x'.repeat(33)]) {
      expectError(
        await api(admin, 'POST', '/bots', {
          username,
          displayName: 'X',
          moduleCode: tenant.moduleCode,
          customerAccountId: tenant.customer,
        }),
        400,
        'validation_failed',
        'body.username',
      );
    }
    expectError(
      await api(admin, 'POST', '/bots', {
        username: botUsername(),
        displayName: '   ',
        moduleCode: tenant.moduleCode,
        customerAccountId: tenant.customer,
      }),
      400,
      'validation_failed',
      'body.displayName',
    );
    expect([await botRows(), await accountRows()]).toEqual([bots, accounts]);
  });
});

describe('reading and managing', () => {
  test('the owning tenant and platform administrators see a bot; other tenants are told it does not exist', async () => {
    const [tenant, other] = await Promise.all([platform.tenant(), platform.tenant()]);
    const [mine, theirs] = await Promise.all([createBot(platform, tenant), createBot(platform, other)]);
    const [member, stranger] = await Promise.all([tenant.account(), other.account()]);
    expectOk(await api(member.token, 'GET', `/bots/${mine.id}`));
    expectOk(await api(admin, 'GET', `/bots/${mine.id}`));
    expectError(await api(stranger.token, 'GET', `/bots/${mine.id}`), 404, 'bot_not_found');
    expectError(await api(stranger.token, 'PATCH', `/bots/${mine.id}`, { displayName: 'Stolen' }), 404, 'bot_not_found');
    expectError(await api(stranger.token, 'POST', `/bots/${mine.id}/regenerate-token`), 404, 'bot_not_found');
    expectError(await api(stranger.token, 'POST', `/bots/${mine.id}/webhook`, { url: 'https://example.com/hook' }), 404, 'bot_not_found');
    const listed = await api(member.token, 'GET', '/bots');
    expect(listed.body.data.map((b: any) => b.id)).toEqual([mine.id]);
    expect(listed.body.data.map((b: any) => b.id)).not.toContain(theirs.id);
    // The old token still works: nothing above changed the bot.
    resultOf(await botCall(platform, mine.token, 'getMe'));
  });

  test('platform administrators list every bot, page by page', async () => {
    const tenant = await platform.tenant();
    await Promise.all([createBot(platform, tenant), createBot(platform, tenant), createBot(platform, tenant)]);
    const pages = await walkPages(async (cursor) => {
      const page: any = await api(admin, 'GET', `/bots?limit=2${cursorParam(cursor)}`);
      expectOk(page);
      return page;
    }, chatNextCursor);
    const seen: string[] = pages.flatMap((page) => page.body.data.map((b: any) => b.id));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.length).toBe(await count(platform.db, 'select count(*) as n from bots where deleted_at is null'));
    expectError(await api(admin, 'GET', '/bots?cursor=forged'), 400, 'invalid_cursor');
  });

  test('updateBot changes the username and the account; a taken username is 409 and changes nothing', async () => {
    const tenant = await platform.tenant();
    const [bot, other] = await Promise.all([createBot(platform, tenant), createBot(platform, tenant)]);
    const member = await tenant.account();
    const renamed = botUsername();
    const res = await api(member.token, 'PATCH', `/bots/${bot.id}`, { username: renamed, displayName: 'Renamed', description: null });
    expectOk(res);
    expect(res.body.data).toMatchObject({ username: renamed, displayName: 'Renamed', description: null });
    expect((await platform.db.query('select display_name from accounts where id = $1', [bot.accountId])).rows[0].display_name).toBe(
      'Renamed',
    );
    expect(resultOf(await botCall(platform, bot.token, 'getMe'))).toMatchObject({ username: renamed, first_name: 'Renamed' });
    const events = await count(platform.db, "select count(*) as n from outbox where topic = 'bot.updated' and payload->>'botId' = $1", [
      bot.id,
    ]);
    expectError(await api(member.token, 'PATCH', `/bots/${bot.id}`, { username: other.username }), 409, 'username_taken');
    expectOk(await api(member.token, 'PATCH', `/bots/${bot.id}`, { displayName: 'Renamed' }));
    expect(
      await count(platform.db, "select count(*) as n from outbox where topic = 'bot.updated' and payload->>'botId' = $1", [bot.id]),
    ).toBe(events);
    expect((await api(member.token, 'GET', `/bots/${bot.id}`)).body.data.username).toBe(renamed);
  });
});

describe('tokens', () => {
  test('regenerate-token: the old token is refused at once (a waiting long poll included), the new one works', async () => {
    const tenant = await platform.tenant();
    const bot = await createBot(platform, tenant);
    const member = await tenant.account();
    const waiting = botCall(platform, bot.token, 'getUpdates', { timeout: 30 });
    await new Promise((r) => setTimeout(r, 200));
    const res = await api(member.token, 'POST', `/bots/${bot.id}/regenerate-token`);
    expectOk(res);
    expect(res.body.data.botId).toBe(bot.id);
    expect(res.body.data.token).not.toBe(bot.token);
    expect((await waiting).body).toEqual({ ok: false, error_code: 401, description: 'Unauthorized' });
    expectBotError(await botCall(platform, bot.token, 'getMe'), 401, 'Unauthorized');
    expectBotError(
      await botCall(platform, bot.token, 'sendMessage', { chat_id: bot.id, text: 'x' }, { telegram: true }),
      401,
      'Unauthorized',
    );
    const me = resultOf(await botCall(platform, res.body.data.token, 'getMe'));
    expect(me.id).toBe(await userNumber(platform, bot.accountId));
    // The new token keeps the id part (Telegram's shape) and changes the secret.
    expect(res.body.data.token.split(':')[0]).toBe(String(me.id));
    expect(res.body.data.token).toMatch(/^\d+:[A-Za-z0-9_-]{35,}$/);
  });

  test('deleteBot: token refused, account deactivated, messages kept; the username is free again', async () => {
    const tenant = await platform.tenant();
    const bot = await createBot(platform, tenant);
    const alice = await tenant.account();
    const roomId = await groupWith(platform, alice, [bot.accountId]);
    const sent = resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: 'I was here' }));
    const res = await api(admin, 'DELETE', `/bots/${bot.id}`);
    expectOk(res);
    expect(res.body.data).toEqual({ botId: bot.id, status: 'deleted' });
    expectBotError(await botCall(platform, bot.token, 'getMe'), 401, 'Unauthorized');
    expectError(await api(alice.token, 'GET', `/bots/${bot.id}`), 404, 'bot_not_found');
    expectError(await api(admin, 'DELETE', `/bots/${bot.id}`), 404, 'bot_not_found');
    expect((await platform.db.query('select status from accounts where id = $1', [bot.accountId])).rows[0].status).toBe('DEACTIVATED');
    const messages = await api(alice.token, 'GET', `/rooms/${roomId}/messages`);
    expect(messages.body.data.map((m: any) => m.text)).toEqual(['I was here']);
    expect(sent.message_id).toBe(1);
    // Nobody adds a deleted bot to a room.
    const other = await groupWith(platform, alice, []);
    expectError(
      await api(alice.token, 'POST', `/rooms/${other}/members`, { accountIds: [bot.accountId] }),
      400,
      'validation_failed',
      'body.accountIds.0',
    );
    await createBot(platform, tenant, { username: bot.username });
  });
});

describe('rooms', () => {
  test('a bot joins a room through addRoomMembers like any account of the tenant', async () => {
    const tenant = await platform.tenant();
    const [bot, alice] = await Promise.all([createBot(platform, tenant), tenant.account()]);
    const roomId = await groupWith(platform, alice, []);
    expectBotError(
      await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: 'not yet' }),
      400,
      'Bad Request: chat not found',
    );
    const added = await api(alice.token, 'POST', `/rooms/${roomId}/members`, { accountIds: [bot.accountId] });
    expect(added.body.data.added).toEqual([bot.accountId]);
    resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: 'now' }));
    const members = await api(alice.token, 'GET', `/rooms/${roomId}/members`);
    expect(members.body.data.find((m: any) => m.accountId === bot.accountId).accountType).toBe('BOT');
  });

  test('setBotRoomReadAll: owner/admin of a group the bot is in; members, strangers, private rooms and absent bots are refused', async () => {
    const tenant = await platform.tenant();
    const [bot, alice, bob] = await Promise.all([createBot(platform, tenant), tenant.account(), tenant.account()]);
    const roomId = await groupWith(platform, alice, [bob.id, bot.accountId]);
    const empty = await groupWith(platform, alice, [bob.id]);
    const privateRoom = await privateRoomWith(platform, alice, bot.accountId);
    const before = await count(platform.db, 'select count(*) as n from bot_room_settings');
    expectError(await api(bob.token, 'PATCH', `/bots/${bot.id}/rooms/${roomId}`, { readAll: true }), 403, 'forbidden');
    expectError(await api(admin, 'PATCH', `/bots/${bot.id}/rooms/${roomId}`, { readAll: true }), 404, 'room_not_found');
    expectError(await api(alice.token, 'PATCH', `/bots/${bot.id}/rooms/${empty}`, { readAll: true }), 409, 'bot_not_in_room');
    expectError(await api(alice.token, 'PATCH', `/bots/${bot.id}/rooms/${privateRoom}`, { readAll: true }), 409, 'unsupported_room_type');
    expectError(
      await api(alice.token, 'PATCH', `/bots/${bot.id}/rooms/${roomId}`, { readAll: 'yes' }),
      400,
      'validation_failed',
      'body.readAll',
    );
    expect(await count(platform.db, 'select count(*) as n from bot_room_settings')).toBe(before);

    const on = await api(alice.token, 'PATCH', `/bots/${bot.id}/rooms/${roomId}`, { readAll: true });
    expect(on.body.data).toEqual({ botId: bot.id, roomId, readAll: true });
    expectOk(await api(alice.token, 'PATCH', `/bots/${bot.id}/rooms/${roomId}`, { readAll: true }));
    const events = await platform.db.query("select payload from outbox where topic = 'bot.read_all_changed' and payload->>'roomId' = $1", [
      roomId,
    ]);
    expect(events.rows.map((r) => r.payload)).toEqual([
      expect.objectContaining({ botId: bot.id, readAll: true, changedBy: alice.id, audience: { kind: 'room', roomId } }),
    ]);
    expect((await api(bob.token, 'GET', `/bots/${bot.id}`)).body.data.readAllRoomIds).toEqual([roomId]);
  });
});

describe('webhook URLs', () => {
  test('only https to public addresses by default, on both APIs', async () => {
    const tenant = await platform.tenant();
    const [bot, member] = await Promise.all([createBot(platform, tenant), tenant.account()]);
    for (const url of [
      'http://example.com/hook',
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://[::1]/hook',
      'https://10.1.2.3/hook',
      'https://169.254.169.254/latest',
      'https://user:pw@example.com/',
    ]) {
      expectError(await api(member.token, 'POST', `/bots/${bot.id}/webhook`, { url }), 400, 'validation_failed', 'body.url');
      expectBotError(await botCall(platform, bot.token, 'setWebhook', { url }), 400, /^Bad Request: bad webhook: /);
    }
    expectError(
      await api(member.token, 'POST', '/webhooks', { botId: bot.id, url: 'http://example.com/hook' }),
      400,
      'validation_failed',
      'body.url',
    );
    expect(await count(platform.db, 'select count(*) as n from bots where id = $1 and webhook_url is not null', [bot.id])).toBe(0);
    const set = await api(member.token, 'POST', `/bots/${bot.id}/webhook`, { url: 'https://example.com/hook', secretToken: 'abc' });
    expect(set.body.data.webhook).toMatchObject({
      url: 'https://example.com/hook',
      hasSecret: true,
      maxConnections: null,
      allowedUpdates: [],
    });
    const removed = await api(member.token, 'POST', `/bots/${bot.id}/webhook`, { url: null });
    expect(removed.body.data.webhook).toBeNull();
  });
});

describe('pressInlineButton', () => {
  async function keyboardMessage(): Promise<{
    alice: TestAccount;
    bob: TestAccount;
    roomId: string;
    messageId: string;
    bot: Awaited<ReturnType<typeof createBot>>;
  }> {
    const tenant = await platform.tenant();
    const [bot, alice, bob] = await Promise.all([createBot(platform, tenant), tenant.account(), tenant.account()]);
    const roomId = await groupWith(platform, alice, [bot.accountId]);
    await confirmJoined(platform, bot.token);
    resultOf(
      await botCall(platform, bot.token, 'sendMessage', {
        chat_id: roomId,
        text: 'Pick',
        reply_markup: {
          inline_keyboard: [
            [
              { text: 'A', callback_data: 'a' },
              { text: 'Site', url: 'https://example.com' },
            ],
          ],
        },
      }),
    );
    const list = await api(alice.token, 'GET', `/rooms/${roomId}/messages`);
    return { alice, bob, roomId, messageId: list.body.data[0].id, bot };
  }

  test('a press becomes the bot callback_query update and is answered once', async () => {
    const { alice, roomId, messageId, bot } = await keyboardMessage();
    const press = await api(alice.token, 'POST', `/rooms/${roomId}/messages/${messageId}/callback`, { data: 'a' });
    expectOk(press);
    expect(press.body.data).toEqual({ callbackQueryId: expect.any(String), botId: bot.id, roomId, messageId, data: 'a' });
    const updates = await pendingUpdates(platform, bot.token);
    expect(updates[0].callback_query).toMatchObject({
      id: press.body.data.callbackQueryId,
      from: { id: await userNumber(platform, alice.id), is_bot: false },
      data: 'a',
      chat_instance: roomId,
      message: {
        message_id: 1,
        chat: { id: await chatNumber(platform, roomId), type: 'group' },
        text: 'Pick',
        reply_markup: {
          inline_keyboard: [
            [
              { text: 'A', callback_data: 'a' },
              { text: 'Site', url: 'https://example.com' },
            ],
          ],
        },
      },
    });
    expect(
      resultOf(
        await botCall(platform, bot.token, 'answerCallbackQuery', {
          callback_query_id: press.body.data.callbackQueryId,
          text: 'Done',
          show_alert: true,
        }),
      ),
    ).toBe(true);
    expectBotError(
      await botCall(platform, bot.token, 'answerCallbackQuery', { callback_query_id: press.body.data.callbackQueryId }),
      400,
      'Bad Request: query is too old and response timeout expired or query ID is invalid',
    );
    const answered = await platform.db.query(
      "select payload from outbox where topic = 'bot.callback_answered' and payload->>'callbackQueryId' = $1",
      [press.body.data.callbackQueryId],
    );
    expect(answered.rows.map((r) => r.payload)).toEqual([
      {
        callbackQueryId: press.body.data.callbackQueryId,
        botId: bot.id,
        roomId,
        messageId,
        text: 'Done',
        showAlert: true,
        url: null,
        audience: { kind: 'accounts', accountIds: [alice.id] },
      },
    ]);
  });

  test('unknown data, url buttons, strangers, other rooms and deleted bots are refused and store nothing', async () => {
    const { alice, bob, roomId, messageId, bot } = await keyboardMessage();
    const presses = () => count(platform.db, 'select count(*) as n from bot_callback_queries where message_id = $1', [messageId]);
    expectError(
      await api(alice.token, 'POST', `/rooms/${roomId}/messages/${messageId}/callback`, { data: 'b' }),
      400,
      'validation_failed',
      'body.data',
    );
    expectError(
      await api(alice.token, 'POST', `/rooms/${roomId}/messages/${messageId}/callback`, { data: 'https://example.com' }),
      400,
      'validation_failed',
      'body.data',
    );
    expectError(
      await api(alice.token, 'POST', `/rooms/${roomId}/messages/${messageId}/callback`, { data: '' }),
      400,
      'validation_failed',
      'body.data',
    );
    expectError(await api(bob.token, 'POST', `/rooms/${roomId}/messages/${messageId}/callback`, { data: 'a' }), 404, 'room_not_found');
    const elsewhere = await groupWith(platform, alice, []);
    expectError(
      await api(alice.token, 'POST', `/rooms/${elsewhere}/messages/${messageId}/callback`, { data: 'a' }),
      404,
      'message_not_found',
    );
    const plain = await say(platform, alice, roomId, 'no buttons here');
    expectError(
      await api(alice.token, 'POST', `/rooms/${roomId}/messages/${plain.id}/callback`, { data: 'a' }),
      400,
      'validation_failed',
      'body.data',
    );
    expectOk(await api(admin, 'DELETE', `/bots/${bot.id}`));
    expectError(await api(alice.token, 'POST', `/rooms/${roomId}/messages/${messageId}/callback`, { data: 'a' }), 409, 'bot_unavailable');
    expect(await presses()).toBe(0);
  });
});
