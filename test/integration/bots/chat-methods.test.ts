// The chat methods bots commonly call: getChat, getChatMember(Count), sendChatAction, the command menu, room pins,
// forwardMessage and copyMessage; and Telegram methods with no counterpart here answer 400 saying why.
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { count } from '../../helpers/expect.js';
import {
  botCall,
  botInGroup,
  chatNumber,
  expectBotError,
  privateRoomWith,
  resultOf,
  say,
  userNumber,
  waitForEvent,
} from '../../helpers/bots.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

const scene = () => botInGroup(platform);

test('getChat, getChatMember and getChatMemberCount read the room; strangers are not found', async () => {
  const { tenant, alice, bob, bot, roomId, chatId } = await scene();
  expect(resultOf(await botCall(platform, bot.token, 'getChat', { chat_id: chatId }))).toEqual({
    id: chatId,
    type: 'group',
    title: 'Bots',
    accent_color_id: 0,
    max_reaction_count: 1,
  });
  const direct = await privateRoomWith(platform, alice, bot.accountId);
  const directChat = await chatNumber(platform, direct);
  expect(resultOf(await botCall(platform, bot.token, 'getChat', { chat_id: directChat }))).toMatchObject({
    id: directChat,
    type: 'private',
    first_name: 'Alice',
  });
  expect(resultOf(await botCall(platform, bot.token, 'getChatMemberCount', { chat_id: chatId }))).toBe(3);

  const aliceId = await userNumber(platform, alice.id);
  expect(resultOf(await botCall(platform, bot.token, 'getChatMember', { chat_id: chatId, user_id: aliceId }))).toEqual({
    status: 'creator',
    user: { id: aliceId, is_bot: false, first_name: 'Alice' },
    is_anonymous: false,
  });
  expect(
    resultOf(await botCall(platform, bot.token, 'getChatMember', { chat_id: chatId, user_id: await userNumber(platform, bob.id) })).status,
  ).toBe('member');
  const me = resultOf(
    await botCall(platform, bot.token, 'getChatMember', { chat_id: roomId, user_id: await userNumber(platform, bot.accountId) }),
  );
  expect(me.user).toMatchObject({ is_bot: true, username: bot.username });

  const stranger = await tenant.account();
  expectBotError(
    await botCall(platform, bot.token, 'getChatMember', { chat_id: chatId, user_id: await userNumber(platform, stranger.id) }),
    400,
    'Bad Request: user not found',
  );
  expectBotError(await botCall(platform, bot.token, 'getChatMember', { chat_id: chatId, user_id: 'x' }), 400, /^Bad Request: body.user_id/);
  const other = await scene();
  expectBotError(await botCall(platform, bot.token, 'getChat', { chat_id: other.chatId }), 400, 'Bad Request: chat not found');
  expectBotError(await botCall(platform, bot.token, 'getChatMemberCount', { chat_id: other.roomId }), 400, 'Bad Request: chat not found');
});

test('sendChatAction reaches the room as bot.chat_action; a bad action changes nothing', async () => {
  const { bot, roomId, chatId } = await scene();
  expect(resultOf(await botCall(platform, bot.token, 'sendChatAction', { chat_id: chatId, action: 'typing' }))).toBe(true);
  const event = await waitForEvent(platform, 'bot.chat_action', { roomId });
  expect(event).toEqual({ roomId, botId: bot.id, accountId: bot.accountId, action: 'typing', audience: { kind: 'room', roomId } });
  expectBotError(
    await botCall(platform, bot.token, 'sendChatAction', { chat_id: chatId, action: 'dancing' }),
    400,
    /^Bad Request: body.action/,
  );
  expect(
    await count(platform.db, "select count(*) as n from outbox where topic = 'bot.chat_action' and payload->>'roomId' = $1", [roomId]),
  ).toBe(1);
});

test('setMyCommands, getMyCommands and deleteMyCommands keep the command menu', async () => {
  const { bot } = await scene();
  expect(resultOf(await botCall(platform, bot.token, 'getMyCommands', {}))).toEqual([]);
  const commands = [
    { command: 'start', description: 'Start' },
    { command: 'help', description: 'Help' },
  ];
  expect(resultOf(await botCall(platform, bot.token, 'setMyCommands', { commands }))).toBe(true);
  expect(resultOf(await botCall(platform, bot.token, 'getMyCommands', {}))).toEqual(commands);
  // A form body, as python-telegram-bot sends it.
  const form = await fetch(`${platform.chatUrl}/bot${bot.token}/setMyCommands`, {
    method: 'POST',
    body: new URLSearchParams({ commands: JSON.stringify([{ command: 'go', description: 'Go' }]) }),
  });
  expect(form.status).toBe(200);
  expect(resultOf(await botCall(platform, bot.token, 'getMyCommands', {}))).toEqual([{ command: 'go', description: 'Go' }]);
  expectBotError(
    await botCall(platform, bot.token, 'setMyCommands', { commands: [{ command: 'Has Space', description: 'x' }] }),
    400,
    /^Bad Request: body.commands/,
  );
  expectBotError(
    await botCall(platform, bot.token, 'setMyCommands', { commands, scope: { type: 'all_group_chats' } }),
    400,
    /^Bad Request: body.scope/,
  );
  expect(resultOf(await botCall(platform, bot.token, 'getMyCommands', {}))).toEqual([{ command: 'go', description: 'Go' }]);
  expect(resultOf(await botCall(platform, bot.token, 'deleteMyCommands', {}))).toBe(true);
  expect(resultOf(await botCall(platform, bot.token, 'getMyCommands', {}))).toEqual([]);
});

test('pinChatMessage and unpinChatMessage are the room pin, for an owner or admin bot', async () => {
  const { alice, bot, roomId, chatId } = await scene();
  const sent = resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: chatId, text: 'pin me' }));
  expectBotError(
    await botCall(platform, bot.token, 'pinChatMessage', { chat_id: chatId, message_id: sent.message_id }),
    400,
    'Bad Request: not enough rights to manage pinned messages in the chat',
  );
  expect(await count(platform.db, 'select count(*) as n from room_pins where room_id = $1', [roomId])).toBe(0);
  const promoted = await call(platform.chatUrl, 'PATCH', `/api/v1/rooms/${roomId}/members/${bot.accountId}/role`, {
    token: alice.token,
    body: { role: 'ADMIN' },
  });
  expect(promoted.status).toBe(200);
  expect(resultOf(await botCall(platform, bot.token, 'pinChatMessage', { chat_id: chatId, message_id: sent.message_id }))).toBe(true);
  expect(await count(platform.db, 'select count(*) as n from room_pins where room_id = $1', [roomId])).toBe(1);
  expectBotError(
    await botCall(platform, bot.token, 'pinChatMessage', { chat_id: chatId, message_id: 999 }),
    400,
    'Bad Request: message to pin not found',
  );
  expect(resultOf(await botCall(platform, bot.token, 'unpinChatMessage', { chat_id: chatId }))).toBe(true);
  expect(await count(platform.db, 'select count(*) as n from room_pins where room_id = $1', [roomId])).toBe(0);
});

test('forwardMessage copies with forward_origin; copyMessage sends the text as the bot', async () => {
  const { alice, bot, roomId, chatId } = await scene();
  const direct = await privateRoomWith(platform, alice, bot.accountId);
  const directChat = await chatNumber(platform, direct);
  await say(platform, alice, roomId, `@${bot.username} look at this`);
  const forwarded = resultOf(
    await botCall(platform, bot.token, 'forwardMessage', { chat_id: directChat, from_chat_id: chatId, message_id: 1 }),
  );
  expect(forwarded).toMatchObject({
    chat: { id: directChat, type: 'private' },
    text: `@${bot.username} look at this`,
    forward_origin: { type: 'user', sender_user: { id: await userNumber(platform, alice.id), first_name: 'Alice' } },
  });
  const stored = await platform.db.query('select forwarded_from_room_id, sender_id from messages where room_id = $1 and seq = $2', [
    direct,
    forwarded.message_id,
  ]);
  expect(stored.rows[0]).toEqual({ forwarded_from_room_id: roomId, sender_id: bot.accountId });

  const copied = resultOf(await botCall(platform, bot.token, 'copyMessage', { chat_id: directChat, from_chat_id: chatId, message_id: 1 }));
  const copy = await platform.db.query('select text, forwarded_from_room_id, sender_id from messages where room_id = $1 and seq = $2', [
    direct,
    copied.message_id,
  ]);
  expect(copy.rows[0]).toEqual({ text: `@${bot.username} look at this`, forwarded_from_room_id: null, sender_id: bot.accountId });

  const other = await scene();
  const before = await count(platform.db, 'select count(*) as n from messages where room_id = $1', [direct]);
  expectBotError(
    await botCall(platform, bot.token, 'forwardMessage', { chat_id: directChat, from_chat_id: other.chatId, message_id: 1 }),
    400,
    'Bad Request: chat not found',
  );
  expectBotError(
    await botCall(platform, bot.token, 'forwardMessage', { chat_id: directChat, from_chat_id: chatId, message_id: 99 }),
    400,
    'Bad Request: message to forward not found',
  );
  expectBotError(
    await botCall(platform, bot.token, 'copyMessage', { chat_id: directChat, from_chat_id: chatId, message_id: 99 }),
    400,
    'Bad Request: message to copy not found',
  );
  expect(await count(platform.db, 'select count(*) as n from messages where room_id = $1', [direct])).toBe(before);
});

test('a Telegram method with no counterpart answers 400 saying why; an unknown name stays 404', async () => {
  const { bot } = await scene();
  for (const telegram of [false, true]) {
    expectBotError(
      await botCall(platform, bot.token, 'banChatMember', { chat_id: 1, user_id: 2 }, { telegram }),
      400,
      /^Bad Request: method banChatMember is not supported: rooms have no bans, restrictions, removals or rights set by bots/,
    );
    expectBotError(
      await botCall(platform, bot.token, 'sendLocation', {}, { telegram }),
      400,
      /^Bad Request: method sendLocation is not supported: /,
    );
    expectBotError(await botCall(platform, bot.token, 'noSuchMethod', {}, { telegram }), 404, 'Not Found');
  }
  // The token still comes first.
  expectBotError(await botCall(platform, `${bot.token}x`, 'banChatMember', {}), 401, 'Unauthorized');
});
