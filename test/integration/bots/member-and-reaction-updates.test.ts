// my_chat_member, chat_member and message_reaction updates from the chat's own membership and reaction events:
// the bot hears of its own joining, role changes and leaving by default; of other members and of reactions only
// when it listed chat_member or message_reaction in allowed_updates, as in Telegram.
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';
import {
  botCall,
  botInGroup,
  confirmAll,
  chatNumber,
  createBot,
  groupWith,
  pendingUpdates,
  resultOf,
  say,
  userNumber,
  updateKinds,
} from '../../helpers/bots.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

async function chat(who: TestAccount, method: string, path: string, body?: unknown): Promise<any> {
  const res = await call(platform.chatUrl, method, `/api/v1${path}`, { token: who.token, ...(body === undefined ? {} : { body }) });
  expect(res.status).toBeLessThan(300);
  return res.body?.data;
}

const allow = async (token: string, kinds: string[]) =>
  resultOf(await botCall(platform, token, 'getUpdates', { allowed_updates: kinds, timeout: 0 }));

test('the bot added to a group, promoted and leaving gets my_chat_member each time, from whoever made the change', async () => {
  const tenant = await platform.tenant();
  const alice = await tenant.account({ displayName: 'Alice' });
  const bot = await createBot(platform, tenant);
  const roomId = await groupWith(platform, alice, []);
  const chatId = await chatNumber(platform, roomId);
  await chat(alice, 'POST', `/rooms/${roomId}/members`, { accountIds: [bot.accountId] });
  const [added] = await pendingUpdates(platform, bot.token, 1);
  const aliceUser = { id: await userNumber(platform, alice.id), is_bot: false, first_name: 'Alice' };
  const botUser = {
    id: await userNumber(platform, bot.accountId),
    is_bot: true,
    first_name: `Bot ${bot.username}`,
    username: bot.username,
  };
  expect(added.my_chat_member).toEqual({
    chat: { id: chatId, type: 'group', title: 'Bots' },
    from: aliceUser,
    date: expect.any(Number),
    old_chat_member: { status: 'left', user: botUser },
    new_chat_member: { status: 'member', user: botUser },
  });

  await confirmAll(platform, bot.token);
  await chat(alice, 'PATCH', `/rooms/${roomId}/members/${bot.accountId}/role`, { role: 'ADMIN' });
  const [promoted] = await pendingUpdates(platform, bot.token, 1);
  expect(promoted.my_chat_member).toMatchObject({
    from: aliceUser,
    old_chat_member: { status: 'member' },
    new_chat_member: { status: 'administrator', can_delete_messages: true, user: botUser },
  });

  await confirmAll(platform, bot.token);
  expect(resultOf(await botCall(platform, bot.token, 'leaveChat', { chat_id: chatId }))).toBe(true);
  const left = await pendingUpdates(platform, bot.token, 1);
  expect(left.map(updateKinds)).toEqual([['my_chat_member']]);
  expect(left[0].my_chat_member).toMatchObject({ from: botUser, new_chat_member: { status: 'left', user: botUser } });
});

test('chat_member reaches only bots that listed it; the member who changes is not told about itself twice', async () => {
  const { tenant, alice, bob, bot, roomId, chatId } = await botInGroup(platform);
  const carol = await tenant.account({ displayName: 'Carol' });
  // Not listed: nothing about other members.
  await chat(alice, 'POST', `/rooms/${roomId}/members`, { accountIds: [carol.id] });
  await say(platform, alice, roomId, '/marker');
  const quiet = await pendingUpdates(platform, bot.token, 1);
  expect(quiet.map(updateKinds)).toEqual([['message']]);

  await confirmAll(platform, bot.token);
  await allow(bot.token, ['message', 'chat_member']);
  await chat(alice, 'PATCH', `/rooms/${roomId}/members/${bob.id}/role`, { role: 'ADMIN' });
  await chat(carol, 'POST', `/rooms/${roomId}/leave`);
  const updates = await pendingUpdates(platform, bot.token, 2);
  expect(updates.map(updateKinds)).toEqual([['chat_member'], ['chat_member']]);
  expect(updates[0].chat_member).toMatchObject({
    chat: { id: chatId },
    from: { id: await userNumber(platform, alice.id) },
    old_chat_member: { status: 'member', user: { id: await userNumber(platform, bob.id), first_name: 'Bob' } },
    new_chat_member: { status: 'administrator' },
  });
  expect(updates[1].chat_member).toMatchObject({
    from: { id: await userNumber(platform, carol.id) },
    old_chat_member: { status: 'member' },
    new_chat_member: { status: 'left', user: { first_name: 'Carol' } },
  });
});

test('private rooms give no my_chat_member: Telegram reports those only when a user blocks the bot', async () => {
  const tenant = await platform.tenant();
  const dave = await tenant.account({ displayName: 'Dave' });
  const bot = await createBot(platform, tenant);
  const res = await call(platform.chatUrl, 'POST', '/api/v1/rooms/private', { token: dave.token, body: { accountId: bot.accountId } });
  expect(res.status).toBe(200);
  await say(platform, dave, res.body.data.id, 'hi');
  const updates = await pendingUpdates(platform, bot.token, 1);
  expect(updates.map(updateKinds)).toEqual([['message']]);
});

test('message_reaction: only when listed; old and new are the member’s lists; reactions of bots are not sent', async () => {
  const { alice, bot, roomId, chatId } = await botInGroup(platform);
  const said = await say(platform, alice, roomId, '/react to this');
  await pendingUpdates(platform, bot.token, 1);
  await confirmAll(platform, bot.token);
  const react = (who: TestAccount, emoji: string) => chat(who, 'POST', `/rooms/${roomId}/messages/${said.id}/reactions`, { emoji });

  // By default message_reaction is not sent.
  await react(alice, '👍');
  await say(platform, alice, roomId, '/marker');
  expect((await pendingUpdates(platform, bot.token, 1)).map(updateKinds)).toEqual([['message']]);
  await confirmAll(platform, bot.token);

  await allow(bot.token, ['message_reaction']);
  await react(alice, '🔥');
  // The lists are read when the event is drained: wait for each change before the next.
  await pendingUpdates(platform, bot.token, 1);
  await chat(alice, 'DELETE', `/rooms/${roomId}/messages/${said.id}/reactions/${encodeURIComponent('👍')}`);
  const updates = await pendingUpdates(platform, bot.token, 2);
  expect(updates.map(updateKinds)).toEqual([['message_reaction'], ['message_reaction']]);
  const user = { id: await userNumber(platform, alice.id), is_bot: false, first_name: 'Alice' };
  expect(updates[0].message_reaction).toEqual({
    chat: { id: chatId, type: 'group', title: 'Bots' },
    message_id: 1,
    user,
    date: expect.any(Number),
    old_reaction: [{ type: 'emoji', emoji: '👍' }],
    new_reaction: [
      { type: 'emoji', emoji: '👍' },
      { type: 'emoji', emoji: '🔥' },
    ],
  });
  expect(updates[1].message_reaction).toMatchObject({
    old_reaction: [
      { type: 'emoji', emoji: '🔥' },
      { type: 'emoji', emoji: '👍' },
    ],
    new_reaction: [{ type: 'emoji', emoji: '🔥' }],
  });

  // The bot's own reaction (a bot's) reaches no bot.
  await confirmAll(platform, bot.token);
  resultOf(
    await botCall(platform, bot.token, 'setMessageReaction', {
      chat_id: chatId,
      message_id: 1,
      reaction: [{ type: 'emoji', emoji: '👀' }],
    }),
  );
  await react(alice, '🎉');
  const after = await pendingUpdates(platform, bot.token, 1);
  expect(after.map((u) => u.message_reaction.new_reaction.map((r: { emoji: string }) => r.emoji))).toEqual([['🔥', '🎉']]);
});
