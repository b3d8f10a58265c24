// Room administration through Telegram's methods: getChatAdministrators, leaveChat, setChatTitle,
// setChatDescription and deleteMessages, allowed where the bot's room role allows them; refusals change nothing.
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { count } from '../../helpers/expect.js';
import { botCall, botInGroup, expectBotError, privateRoomWith, resultOf, say, userNumber } from '../../helpers/bots.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

const scene = () => botInGroup(platform);

async function setRole(owner: TestAccount, roomId: string, accountId: string, role: string) {
  const res = await call(platform.chatUrl, 'PATCH', `/api/v1/rooms/${roomId}/members/${accountId}/role`, {
    token: owner.token,
    body: { role },
  });
  expect(res.status).toBe(200);
}

const roomRow = (roomId: string) =>
  platform.db.query<{ name: string; description: string | null }>('select name, description from rooms where id = $1', [roomId]);
const liveMessages = (roomId: string) =>
  count(platform.db, 'select count(*) as n from messages where room_id = $1 and recalled_at is null', [roomId]);

test('getChatAdministrators lists the owners as creator and the admins as administrator, members left out', async () => {
  const { alice, bob, bot, roomId, chatId } = await scene();
  const only = resultOf(await botCall(platform, bot.token, 'getChatAdministrators', { chat_id: chatId }));
  expect(only).toEqual([
    { status: 'creator', user: { id: await userNumber(platform, alice.id), is_bot: false, first_name: 'Alice' }, is_anonymous: false },
  ]);
  await setRole(alice, roomId, bob.id, 'ADMIN');
  const both = resultOf(await botCall(platform, bot.token, 'getChatAdministrators', { chat_id: roomId }));
  expect(both.map((m: { status: string; user: { first_name: string } }) => [m.status, m.user.first_name])).toEqual([
    ['creator', 'Alice'],
    ['administrator', 'Bob'],
  ]);
  expect(both[1]).toMatchObject({ can_delete_messages: true, can_change_info: true, can_pin_messages: true });
  const other = await scene();
  expectBotError(
    await botCall(platform, bot.token, 'getChatAdministrators', { chat_id: other.chatId }),
    400,
    'Bad Request: chat not found',
  );
});

test('setChatTitle and setChatDescription need an owner or admin bot; refusals change nothing', async () => {
  const { alice, bot, roomId, chatId } = await scene();
  expectBotError(
    await botCall(platform, bot.token, 'setChatTitle', { chat_id: chatId, title: 'Renamed' }),
    400,
    'Bad Request: not enough rights to change chat title',
  );
  expectBotError(
    await botCall(platform, bot.token, 'setChatDescription', { chat_id: chatId, description: 'About' }),
    400,
    'Bad Request: not enough rights to change chat description',
  );
  expect((await roomRow(roomId)).rows[0]).toEqual({ name: 'Bots', description: null });

  await setRole(alice, roomId, bot.accountId, 'ADMIN');
  expect(resultOf(await botCall(platform, bot.token, 'setChatTitle', { chat_id: chatId, title: '  Renamed  ' }))).toBe(true);
  expect(resultOf(await botCall(platform, bot.token, 'setChatDescription', { chat_id: chatId, description: 'About' }))).toBe(true);
  expect((await roomRow(roomId)).rows[0]).toEqual({ name: 'Renamed', description: 'About' });
  // The room's members see the change as any room update.
  const room = await call(platform.chatUrl, 'GET', `/api/v1/rooms/${roomId}`, { token: alice.token });
  expect(room.body.data).toMatchObject({ name: 'Renamed', description: 'About' });
  expect(resultOf(await botCall(platform, bot.token, 'setChatDescription', { chat_id: chatId }))).toBe(true);
  expect((await roomRow(roomId)).rows[0]!.description).toBeNull();

  expectBotError(await botCall(platform, bot.token, 'setChatTitle', { chat_id: chatId, title: '' }), 400, /^Bad Request: body.title/);
  expectBotError(
    await botCall(platform, bot.token, 'setChatTitle', { chat_id: chatId, title: 'x'.repeat(129) }),
    400,
    /^Bad Request: body.title/,
  );
  expectBotError(
    await botCall(platform, bot.token, 'setChatDescription', { chat_id: chatId, description: 'x'.repeat(256) }),
    400,
    /^Bad Request: body.description/,
  );
  const direct = await privateRoomWith(platform, alice, bot.accountId);
  expectBotError(
    await botCall(platform, bot.token, 'setChatTitle', { chat_id: direct, title: 'Mine' }),
    400,
    "Bad Request: chat title can't be changed in private chats",
  );
  expect((await roomRow(roomId)).rows[0]!.name).toBe('Renamed');
});

test('leaveChat: the bot leaves a group as a member leaves it, and the room is no longer its chat', async () => {
  const { alice, bot, roomId, chatId } = await scene();
  const direct = await privateRoomWith(platform, alice, bot.accountId);
  expectBotError(await botCall(platform, bot.token, 'leaveChat', { chat_id: direct }), 400, "Bad Request: can't leave private chat");
  expect(resultOf(await botCall(platform, bot.token, 'leaveChat', { chat_id: chatId }))).toBe(true);
  expect(
    await count(platform.db, 'select count(*) as n from room_members where room_id = $1 and account_id = $2', [roomId, bot.accountId]),
  ).toBe(0);
  expectBotError(await botCall(platform, bot.token, 'getChat', { chat_id: chatId }), 400, 'Bad Request: chat not found');
  expectBotError(await botCall(platform, bot.token, 'leaveChat', { chat_id: chatId }), 400, 'Bad Request: chat not found');
  const members = await call(platform.chatUrl, 'GET', `/api/v1/rooms/${roomId}/members`, { token: alice.token });
  expect(members.body.data.map((m: { accountId: string }) => m.accountId)).not.toContain(bot.accountId);
});

test('deleteMessages recalls the bot own messages, skips missing ones, and deletes none where one is not its to delete', async () => {
  const { alice, bot, roomId, chatId } = await scene();
  const sent: number[] = [];
  for (const text of ['one', 'two', 'three'])
    sent.push(resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: chatId, text })).message_id);
  const said = await say(platform, alice, roomId, 'mine');
  // Her message's message_id as a bot sees it: its number in the room.
  const hers = (await platform.db.query<{ seq: string }>('select seq from messages where id = $1', [said.id])).rows.map((r) => ({
    seq: Number(r.seq),
  }))[0]!;
  const before = await liveMessages(roomId);

  expectBotError(
    await botCall(platform, bot.token, 'deleteMessages', { chat_id: chatId, message_ids: [sent[0], hers.seq] }),
    400,
    "Bad Request: message can't be deleted: the bot is not an owner or admin of the chat",
  );
  expect(await liveMessages(roomId)).toBe(before);
  expectBotError(
    await botCall(platform, bot.token, 'deleteMessages', { chat_id: chatId, message_ids: [] }),
    400,
    /^Bad Request: body.message_ids/,
  );
  expectBotError(
    await botCall(platform, bot.token, 'deleteMessages', { chat_id: chatId, message_ids: Array.from({ length: 101 }, (_, i) => i + 1) }),
    400,
    /^Bad Request: body.message_ids/,
  );

  expect(resultOf(await botCall(platform, bot.token, 'deleteMessages', { chat_id: chatId, message_ids: [sent[0], sent[1], 9999] }))).toBe(
    true,
  );
  expect(await liveMessages(roomId)).toBe(before - 2);
  // Deleted already: skipped, not an error.
  expect(resultOf(await botCall(platform, bot.token, 'deleteMessages', { chat_id: chatId, message_ids: [sent[0]] }))).toBe(true);

  await setRole(alice, roomId, bot.accountId, 'ADMIN');
  expect(resultOf(await botCall(platform, bot.token, 'deleteMessages', { chat_id: chatId, message_ids: [sent[2], hers.seq] }))).toBe(true);
  expect(await liveMessages(roomId)).toBe(before - 4);
  const history = await call(platform.chatUrl, 'GET', `/api/v1/rooms/${roomId}/messages`, { token: alice.token });
  expect(
    history.body.data.filter((m: { recalledAt: string | null }) => m.recalledAt === null).map((m: { text: string }) => m.text),
  ).not.toContain('mine');
});
