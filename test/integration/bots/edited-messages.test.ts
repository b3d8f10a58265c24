// edited_message updates: a user's edit of a message the bot received reaches the bot as the message now is, in
// the order of the chat's events; a bot that did not receive the message, or that left edited_message out of
// allowed_updates, gets nothing.
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';
import { botCall, botInGroup, pendingUpdates, privateRoomWith, resultOf, say } from '../../helpers/bots.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'] });
});
afterAll(async () => {
  await platform?.stop();
});

async function edit(who: TestAccount, roomId: string, messageId: string, text: string): Promise<void> {
  const res = await call(platform.chatUrl, 'PATCH', `/api/v1/rooms/${roomId}/messages/${messageId}`, { token: who.token, body: { text } });
  expect(res.status).toBe(200);
}

/** An update's kinds: its keys besides update_id and update_uuid. */
const kindsOf = (update: Record<string, unknown>) => Object.keys(update).filter((k) => !k.startsWith('update_'));

/** Confirms every pending update, so that the next look sees only what follows. */
async function confirmAll(token: string): Promise<void> {
  const pending = resultOf(await botCall(platform, token, 'getUpdates', { timeout: 0 }));
  const last = pending.at(-1)?.update_id ?? -1;
  resultOf(await botCall(platform, token, 'getUpdates', { offset: last + 1, timeout: 0 }));
}

test('a user editing a message in a private room gives the bot an edited_message after the message', async () => {
  const { tenant, bot } = await botInGroup(platform);
  const carol = await tenant.account({ displayName: 'Carol' });
  const roomId = await privateRoomWith(platform, carol, bot.accountId);
  const sent = await say(platform, carol, roomId, 'helo');
  await edit(carol, roomId, sent.id, 'hello');

  const updates = await pendingUpdates(platform, bot.token, 2);
  expect(updates.map(kindsOf)).toEqual([['message'], ['edited_message']]);
  const [first, second] = updates;
  expect(second.update_id).toBe(first.update_id + 1);
  expect(second.edited_message).toMatchObject({
    message_id: first.message.message_id,
    text: 'hello',
    chat: { id: first.message.chat.id, type: 'private' },
    from: { id: first.message.from.id },
    edit_date: expect.any(Number),
  });
});

test('in a group only edits of messages the bot receives reach it; allowed_updates can leave them out', async () => {
  const { alice, bot, roomId } = await botInGroup(platform);
  const command = await say(platform, alice, roomId, '/start');
  const chatter = await say(platform, alice, roomId, 'just talking');
  await pendingUpdates(platform, bot.token, 1);
  await confirmAll(bot.token);
  await edit(alice, roomId, chatter.id, 'still just talking');
  await edit(alice, roomId, command.id, '/help');
  const updates = await pendingUpdates(platform, bot.token, 1);
  expect(updates.map((u) => u.edited_message?.text)).toEqual(['/help']);

  // Leaving edited_message out of allowed_updates stops them, as in Telegram.
  const last = updates[0].update_id;
  resultOf(await botCall(platform, bot.token, 'getUpdates', { offset: last + 1, timeout: 0, allowed_updates: ['message'] }));
  await edit(alice, roomId, command.id, '/settings');
  await say(platform, alice, roomId, '/stop');
  const later = await pendingUpdates(platform, bot.token, 1);
  expect(later.map(kindsOf)).toEqual([['message']]);
  expect(later[0].message.text).toBe('/stop');
});

test("the bot's own edits are not sent back to it", async () => {
  const { tenant, bot } = await botInGroup(platform);
  const dave = await tenant.account({ displayName: 'Dave' });
  const roomId = await privateRoomWith(platform, dave, bot.accountId);
  const mine = resultOf(await botCall(platform, bot.token, 'sendMessage', { chat_id: roomId, text: 'draft' }));
  resultOf(await botCall(platform, bot.token, 'editMessageText', { chat_id: roomId, message_id: mine.message_id, text: 'final' }));
  await say(platform, dave, roomId, 'ok');
  const updates = await pendingUpdates(platform, bot.token, 1);
  expect(updates.map(kindsOf)).toEqual([['message']]);
  expect(updates[0].message.text).toBe('ok');
});
