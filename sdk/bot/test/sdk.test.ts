// Drives the real Bot API through the SDK (imported by path: the package is not linked into node_modules).
import { readFile } from 'node:fs/promises';
import { startTestPlatform, type TestPlatform } from '../../../test/support/platform.js';
import { chatNumber, confirmJoined, createBot, groupWith, say, userNumber } from '../../../test/helpers/bots.js';
import { BotApiError, createBotClient, operationRoutes, type BotClient, type Update } from '../src/index.js';

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform({ services: ['chat', 'workers'], botWebhookAllowHttp: true, botWebhookAllowPrivate: true });
});
afterAll(async () => {
  await platform?.stop();
});

/** Method and path of every operation of the published document, by operationId. */
async function documentRoutes(): Promise<Record<string, { method: string; path: string }>> {
  const doc = JSON.parse(await readFile(new URL('../../../generated/openapi/bot.json', import.meta.url), 'utf8')) as {
    paths: Record<string, Record<string, { operationId?: string }>>;
  };
  const fromDoc: Record<string, { method: string; path: string }> = {};
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) if (op.operationId) fromDoc[op.operationId] = { method, path };
  return fromDoc;
}

test('the route table is the published document', async () => {
  const fromDoc = await documentRoutes();
  expect(Object.fromEntries(Object.entries(operationRoutes).map(([k, v]) => [k, { method: v.method, path: v.path }]))).toEqual(fromDoc);
});

async function botAndRoom(): Promise<{ client: BotClient; roomId: string; say: (text: string) => Promise<unknown>; accountId: string }> {
  const tenant = await platform.tenant();
  const alice = await tenant.account();
  const made = await createBot(platform, tenant);
  const roomId = await groupWith(platform, alice, [made.accountId]);
  // The bot's own my_chat_member update (it joined the group) is taken first, so the tests see only what follows.
  await confirmJoined(platform, made.token);
  return {
    client: createBotClient({ baseUrl: platform.chatUrl, token: made.token }),
    roomId,
    accountId: made.accountId,
    say: (text) => say(platform, alice, roomId, text),
  };
}

test('typed results: getMe, sendMessage with a keyboard, editMessageText, deleteMessage', async () => {
  const { client, roomId, accountId } = await botAndRoom();
  const me = await client.getMe();
  expect(me.id).toBe(await userNumber(platform, accountId));
  const chatId = await chatNumber(platform, roomId);
  const sent = await client.sendMessage({
    chat_id: chatId,
    text: 'hello',
    reply_markup: { inline_keyboard: [[{ text: 'Go', callback_data: 'go' }]] },
  });
  expect(sent).toMatchObject({
    message_id: 1,
    chat: { id: chatId, type: 'group' },
    text: 'hello',
    reply_markup: { inline_keyboard: [[{ text: 'Go', callback_data: 'go' }]] },
  });
  const edited = await client.editMessageText({ chat_id: roomId, message_id: sent.message_id, text: 'hello again' });
  expect(edited).toMatchObject({ text: 'hello again' });
  const deleted = await client.deleteMessage({ chat_id: roomId, message_id: sent.message_id });
  expect(deleted).toBe(true);
  await expect(client.getFile({ file_id: 'FAAAAAAAAAAAAAAAAAAAAAA' })).rejects.toMatchObject({
    description: 'Bad Request: file not found',
  });
});

test('errors throw BotApiError with Telegram error codes', async () => {
  const { client, roomId } = await botAndRoom();
  const missing = client.deleteMessage({ chat_id: roomId, message_id: 99 });
  await expect(missing).rejects.toBeInstanceOf(BotApiError);
  await expect(missing).rejects.toMatchObject({
    status: 400,
    code: 'bad_request',
    errorCode: 400,
    description: 'Bad Request: message to delete not found',
  });
  const stranger = createBotClient({ baseUrl: platform.chatUrl, token: '1:nope' });
  await expect(stranger.getMe()).rejects.toMatchObject({ status: 401, code: 'unauthorized', description: 'Unauthorized' });
});

/** Runs updates() into `seen` until `wanted` updates have come, then aborts the loop. */
async function collectUpdates(client: BotClient, wanted: number, seen: Update[]): Promise<void> {
  const controller = new AbortController();
  for await (const update of client.updates({ timeout: 5, signal: controller.signal })) {
    seen.push(update);
    if (seen.length === wanted) controller.abort();
  }
}

test('updates() long-polls, yields in order and confirms what it yielded', async () => {
  const { client, say: send } = await botAndRoom();
  const seen: Update[] = [];
  const loop = collectUpdates(client, 2, seen);
  await send('/start one');
  // The second message is sent once the first has been yielded, so that they come in two polls.
  while (seen.length < 1) await new Promise((r) => setTimeout(r, 10));
  await send('/start two');
  await loop;
  expect(seen.map((u) => u.message?.text)).toEqual(['/start one', '/start two']);
  expect(seen.map((u) => u.update_id)).toEqual([seen[0]!.update_id, seen[0]!.update_id + 1]);
  // The second update is confirmed by the next request only; a fresh poll still finds it.
  const again = await client.getUpdates({ timeout: 0 });
  expect(again.map((u) => u.message?.text)).toEqual(['/start two']);
});

test('updates() throws BotApiError while a webhook is set (409)', async () => {
  const { client } = await botAndRoom();
  expect(await client.setWebhook({ url: 'http://127.0.0.1:9/hook' })).toBe(true);
  const iterate = async () => {
    for await (const update of client.updates({ timeout: 1 })) void update;
  };
  await expect(iterate()).rejects.toThrow(BotApiError);
  await expect(iterate()).rejects.toMatchObject({ status: 409, code: 'conflict' });
});
