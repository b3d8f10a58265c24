// Bots for the tests: made through the administration API (a platform administrator creates them in a tenant), and
// driven through the Bot API over HTTP, at /bot/<token>/<method> or the Telegram-shaped /bot<token>/<method>.
import { randomUUID } from 'node:crypto';
import { call, type TestAccount, type TestPlatform, type TestTenant } from '../support/platform.js';

export interface TestBot {
  id: string;
  accountId: string;
  username: string;
  token: string;
}

export interface BotAnswer {
  status: number;
  body: any;
  headers: Headers;
}

export const botUsername = () => `bot_${randomUUID().replace(/-/g, '').slice(0, 12)}`;

export async function createBot(
  platform: TestPlatform,
  tenant: TestTenant,
  options: { username?: string; displayName?: string } = {},
): Promise<TestBot> {
  const username = options.username ?? botUsername();
  const res = await call(platform.chatUrl, 'POST', '/api/v1/bots', {
    token: await platform.adminToken(),
    body: {
      username,
      displayName: options.displayName ?? `Bot ${username}`,
      moduleCode: tenant.moduleCode,
      customerAccountId: tenant.customer,
    },
  });
  if (res.status !== 200) throw new Error(`create bot: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.bot.id, accountId: res.body.data.bot.accountId, username, token: res.body.data.token };
}

/** Calls a Bot API method with a JSON body (POST) or none (GET); `telegram` uses the /bot<token>/ path. */
export async function botCall(
  platform: TestPlatform,
  token: string,
  method: string,
  body?: unknown,
  options: { telegram?: boolean; httpMethod?: string; query?: string } = {},
): Promise<BotAnswer> {
  const base = options.telegram ? `/bot${token}/${method}` : `/bot/${encodeURIComponent(token)}/${method}`;
  return call(
    platform.chatUrl,
    options.httpMethod ?? (body === undefined ? 'GET' : 'POST'),
    `${base}${options.query ? `?${options.query}` : ''}`,
    body === undefined ? {} : { body },
  );
}

/** A successful Bot API answer's result; fails the test otherwise. */
export function resultOf(res: BotAnswer): any {
  if (res.status !== 200 || res.body?.ok !== true) throw new Error(`expected ok, got ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.result;
}

/** Asserts the Bot API error envelope with this status (and description, when given). */
export function expectBotError(res: BotAnswer, status: number, description?: string | RegExp): void {
  expect({ status: res.status, ok: res.body?.ok, error_code: res.body?.error_code }).toEqual({ status, ok: false, error_code: status });
  expect(typeof res.body.description).toBe('string');
  expect(Object.keys(res.body).filter((k) => !['ok', 'error_code', 'description', 'parameters'].includes(k))).toEqual([]);
  if (typeof description === 'string') expect(res.body.description).toBe(description);
  else if (description) expect(res.body.description).toMatch(description);
}

/** A GROUP room of the owner with the given members (the bot's account among them). */
export async function groupWith(platform: TestPlatform, owner: TestAccount, memberIds: string[]): Promise<string> {
  const res = await call(platform.chatUrl, 'POST', '/api/v1/rooms', {
    token: owner.token,
    body: { type: 'GROUP', name: 'Bots', memberIds },
  });
  if (res.status !== 201) throw new Error(`room: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

export async function say(
  platform: TestPlatform,
  who: TestAccount,
  roomId: string,
  text: string,
  extra: Record<string, unknown> = {},
): Promise<any> {
  const res = await call(platform.chatUrl, 'POST', `/api/v1/rooms/${roomId}/messages`, { token: who.token, body: { text, ...extra } });
  if (res.status !== 201) throw new Error(`send: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Long-polls until at least `n` updates are pending (without confirming them), and returns them. */
export async function pendingUpdates(platform: TestPlatform, token: string, n = 1, timeoutMs = 5000): Promise<any[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const updates = resultOf(await botCall(platform, token, 'getUpdates', { timeout: 1 }));
    if (updates.length >= n || Date.now() > deadline) return updates;
  }
}

/** The 1-1 room of `who` with the bot's account. */
export async function privateRoomWith(platform: TestPlatform, who: TestAccount, botAccountId: string): Promise<string> {
  const res = await call(platform.chatUrl, 'POST', '/api/v1/rooms/private', { token: who.token, body: { accountId: botAccountId } });
  if (res.status !== 200) throw new Error(`private room: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

/** Waits for a message of the room (as `who` sees it) that matches. */
export async function waitForMessage(
  platform: TestPlatform,
  who: TestAccount,
  roomId: string,
  match: (m: any) => boolean,
  timeoutMs = 10_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(platform.chatUrl, 'GET', `/api/v1/rooms/${roomId}/messages?limit=100`, { token: who.token });
    const found = (res.body?.data ?? []).find(match);
    if (found) return found;
    if (Date.now() > deadline)
      throw new Error(
        `no matching message in room ${roomId} within ${timeoutMs} ms: ${JSON.stringify(res.body?.data?.map((m: any) => m.text))}`,
      );
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Waits for an outbox event of the topic whose payload has these fields. */
export async function waitForEvent(
  platform: TestPlatform,
  topic: string,
  fields: Record<string, unknown>,
  timeoutMs = 10_000,
): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await platform.db.query<{ payload: any }>(
      'select payload from outbox where topic = $1 and payload @> $2::jsonb order by id',
      [topic, JSON.stringify(fields)],
    );
    if (rows[0]) return rows[0].payload;
    if (Date.now() > deadline) throw new Error(`no ${topic} event with ${JSON.stringify(fields)} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The integer id the Bot API shows for an account (from.id, getMe's id). */
export async function userNumber(platform: TestPlatform, accountId: string): Promise<number> {
  const { rows } = await platform.db.query('select bot_api_id from accounts where id = $1', [accountId]);
  return Number(rows[0].bot_api_id);
}

/** The chat.id the Bot API shows for a room: positive for a private room, negative for a group. */
export async function chatNumber(platform: TestPlatform, roomId: string): Promise<number> {
  const { rows } = await platform.db.query('select bot_api_id, type from rooms where id = $1', [roomId]);
  return rows[0].type === 'PRIVATE' ? Number(rows[0].bot_api_id) : -Number(rows[0].bot_api_id);
}

/**
 * Waits for the my_chat_member update that tells a bot it joined a group and confirms it (with whatever came before
 * it), so that a test's next look sees only what follows.
 */
export async function confirmJoined(platform: TestPlatform, token: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const updates = resultOf(await botCall(platform, token, 'getUpdates', { timeout: 1 }));
    const joined = updates.find((u: any) => u.my_chat_member?.new_chat_member?.status !== 'left' && u.my_chat_member);
    if (joined) {
      resultOf(await botCall(platform, token, 'getUpdates', { offset: joined.update_id + 1, timeout: 0 }));
      return;
    }
    if (Date.now() > deadline) throw new Error(`no my_chat_member update within ${timeoutMs} ms: ${JSON.stringify(updates)}`);
  }
}

/** A fresh tenant's group "Bots" of Alice (owner), Bob and a bot (its joining confirmed), with the room's chat.id. */
export async function botInGroup(platform: TestPlatform) {
  const tenant = await platform.tenant();
  const [alice, bob] = await Promise.all([tenant.account({ displayName: 'Alice' }), tenant.account({ displayName: 'Bob' })]);
  const bot = await createBot(platform, tenant);
  const roomId = await groupWith(platform, alice, [bob.id, bot.accountId]);
  await confirmJoined(platform, bot.token);
  return { tenant, alice, bob, bot, roomId, chatId: await chatNumber(platform, roomId) };
}

/** Confirms every pending update of the bot, so that its next look sees only what follows. */
export async function confirmAll(platform: TestPlatform, token: string): Promise<void> {
  const pending = resultOf(await botCall(platform, token, 'getUpdates', { timeout: 0 }));
  const last = pending.at(-1)?.update_id ?? -1;
  resultOf(await botCall(platform, token, 'getUpdates', { offset: last + 1, timeout: 0 }));
}

/** The kinds an update carries (message, poll, my_chat_member, ...), its update_id left out. */
export const updateKinds = (update: Record<string, unknown>) => Object.keys(update).filter((k) => !k.startsWith('update_'));
