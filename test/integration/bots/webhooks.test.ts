// Webhook delivery to a local HTTP receiver: the secret header on every delivery, one delivery in flight per bot
// and updates in order, retries after failures with the last error in getWebhookInfo, the secret of
// POST /api/v1/webhooks shown once, getUpdates refused while a webhook is set, and a webhook set while the relay
// stores an update for the bot.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, isolatedInfra, startTestPlatform, type TestAccount, type TestPlatform, type TestTenant } from '../../support/platform.js';
import { botCall, createBot, expectBotError, groupWith, resultOf, say, type TestBot, confirmJoined } from '../../helpers/bots.js';
import { count, eventually } from '../../helpers/expect.js';

interface Delivery {
  secret: string | undefined;
  update: any;
  status: number;
}

/** A receiver that answers with `answer(n)` (the n-th request, from 0) after `delayMs`, recording everything. */
class Receiver {
  readonly deliveries: Delivery[] = [];
  inFlight = 0;
  maxInFlight = 0;
  private server: Server;
  url = '';

  constructor(
    private readonly answer: (n: number) => number = () => 200,
    private readonly delayMs = 0,
  ) {
    this.server = createServer((req, res) => this.handle(req, res));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = this.answer(this.deliveries.length);
      this.deliveries.push({
        secret: req.headers['x-telegram-bot-api-secret-token'] as string | undefined,
        update: JSON.parse(Buffer.concat(chunks).toString()),
        status,
      });
      setTimeout(() => {
        this.inFlight -= 1;
        res.writeHead(status).end();
      }, this.delayMs);
    });
  }

  /** Updates the receiver took (answered 2xx), in arrival order. */
  get accepted(): any[] {
    return this.deliveries.filter((d) => d.status < 300).map((d) => d.update);
  }

  async until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline)
        throw new Error(`receiver: condition not met; got ${JSON.stringify(this.deliveries.map((d) => [d.status, d.update.update_id]))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let platform: TestPlatform;
let infra: Awaited<ReturnType<typeof isolatedInfra>>;
const receivers: Receiver[] = [];
beforeAll(async () => {
  // A queue of its own: another test file's webhook worker (without http receivers allowed) must not take these
  // deliveries.
  infra = await isolatedInfra();
  platform = await startTestPlatform({
    services: ['chat', 'workers'],
    databaseUrl: infra.databaseUrl,
    redisUrl: infra.redisUrl,
    botWebhookAllowHttp: true,
    botWebhookAllowPrivate: true,
    botWebhookRetryBaseMs: 50,
    botWebhookRetryMaxMs: 200,
  });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await platform?.stop();
  await infra?.drop();
});

/** A receiver's answers by delivery number (from 0): these statuses first, 200 after them. */
const answersThen200 = (statuses: number[]) => (n: number) => statuses[n] ?? 200;

async function receiver(answer?: (n: number) => number, delayMs?: number): Promise<Receiver> {
  const r = await new Receiver(answer, delayMs).start();
  receivers.push(r);
  return r;
}

async function webhookInfoWhen(bot: TestBot, check: (info: any) => boolean, timeoutMs = 10_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const info = resultOf(await botCall(platform, bot.token, 'getWebhookInfo'));
    if (check(info) || Date.now() > deadline) return info;
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function scene(): Promise<{ tenant: TestTenant; alice: TestAccount; bot: TestBot; roomId: string }> {
  const tenant = await platform.tenant();
  const alice = await tenant.account();
  const bot = await createBot(platform, tenant);
  const roomId = await groupWith(platform, alice, [bot.accountId]);
  await confirmJoined(platform, bot.token);
  // Every message of the room reaches the bot.
  expect(
    (await call(platform.chatUrl, 'PATCH', `/api/v1/bots/${bot.id}/rooms/${roomId}`, { token: alice.token, body: { readAll: true } }))
      .status,
  ).toBe(200);
  return { tenant, alice, bot, roomId };
}

test('setWebhook: each update is posted once, in order, one at a time, with the secret header', async () => {
  const { alice, bot, roomId } = await scene();
  const hook = await receiver(() => 200, 30);
  const set = await botCall(platform, bot.token, 'setWebhook', { url: hook.url, secret_token: 'very-secret_1' });
  expect(set.body).toEqual({ ok: true, result: true, description: 'Webhook was set' });
  for (let i = 1; i <= 6; i++) await say(platform, alice, roomId, `message ${i}`);
  await hook.until(() => hook.accepted.length === 6);
  expect(hook.accepted.map((u) => u.message.text)).toEqual([1, 2, 3, 4, 5, 6].map((i) => `message ${i}`));
  const ids = hook.accepted.map((u) => u.update_id);
  expect(ids).toEqual(ids.map((_, i) => ids[0] + i));
  expect(hook.deliveries.every((d) => d.secret === 'very-secret_1')).toBe(true);
  expect(hook.maxInFlight).toBe(1);
  // The receiver records a delivery before it answers; the platform forgets the update once the answer is in.
  const info = await webhookInfoWhen(bot, (i) => i.pending_update_count === 0);
  expect(info).toEqual({ url: hook.url, has_custom_certificate: false, pending_update_count: 0 });
  // Polling is refused while the webhook is set, in the Bot API envelope.
  expectBotError(
    await botCall(platform, bot.token, 'getUpdates', {}),
    409,
    /^Conflict: can't use getUpdates method while webhook is active/,
  );
});

test('a failing receiver is retried until it takes the update; the last error shows in getWebhookInfo', async () => {
  const { alice, bot, roomId } = await scene();
  // The first three attempts fail (500, 500, 503), then everything succeeds.
  const hook = await receiver(answersThen200([500, 500, 503]));
  resultOf(await botCall(platform, bot.token, 'setWebhook', { url: hook.url }));
  await say(platform, alice, roomId, 'first');
  await say(platform, alice, roomId, 'second');
  await hook.until(() => hook.deliveries.length >= 1);
  await hook.until(() => hook.accepted.length === 2);
  // Nothing is skipped while the first update is retried: the second waits behind it.
  expect(hook.deliveries.map((d) => [d.status, d.update.message.text])).toEqual([
    [500, 'first'],
    [500, 'first'],
    [503, 'first'],
    [200, 'first'],
    [200, 'second'],
  ]);
  expect(hook.deliveries.every((d) => d.secret === undefined)).toBe(true);
  const bots = await call(platform.chatUrl, 'GET', `/api/v1/bots/${bot.id}`, { token: alice.token });
  // A success clears the failure count but keeps the last error for getWebhookInfo, as Telegram does.
  expect(bots.body.data.webhook).toMatchObject({
    url: hook.url,
    hasSecret: false,
    lastErrorMessage: 'Wrong response from the webhook: 503 Service Unavailable',
  });
  const info = await webhookInfoWhen(bot, (i) => i.pending_update_count === 0);
  expect(info.last_error_message).toBe('Wrong response from the webhook: 503 Service Unavailable');
  expect(typeof info.last_error_date).toBe('number');
});

test('an unreachable webhook keeps its updates pending; deleteWebhook with drop_pending_updates forgets them', async () => {
  const { alice, bot, roomId } = await scene();
  const hook = await receiver();
  const url = hook.url;
  await hook.close();
  receivers.splice(receivers.indexOf(hook), 1);
  resultOf(await botCall(platform, bot.token, 'setWebhook', { url }));
  await say(platform, alice, roomId, 'nobody listens');
  const info = await webhookInfoWhen(bot, (i) => i.last_error_message !== undefined);
  expect(info).toMatchObject({ url, pending_update_count: 1, last_error_message: 'Connection refused' });
  const dropped = await botCall(platform, bot.token, 'deleteWebhook', { drop_pending_updates: true });
  expect(dropped.body).toEqual({ ok: true, result: true, description: 'Webhook was deleted' });
  expect(resultOf(await botCall(platform, bot.token, 'getWebhookInfo'))).toEqual({
    url: '',
    has_custom_certificate: false,
    pending_update_count: 0,
  });
  expect((await botCall(platform, bot.token, 'deleteWebhook', {})).body.description).toBe('Webhook is already deleted');
  // Polling works again.
  expect(resultOf(await botCall(platform, bot.token, 'getUpdates', {}))).toEqual([]);
});

test('POST /api/v1/webhooks makes the secret, answers it once, and deliveries carry it', async () => {
  const { alice, bot, roomId } = await scene();
  const hook = await receiver();
  const made = await call(platform.chatUrl, 'POST', '/api/v1/webhooks', {
    token: alice.token,
    body: { botId: bot.id, url: hook.url, allowedUpdates: ['message'] },
  });
  expect(made.status).toBe(200);
  const secret: string = made.body.data.secret;
  expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(made.body.data).toMatchObject({
    botId: bot.id,
    url: hook.url,
    hasSecret: true,
    allowedUpdates: ['message'],
    pendingUpdateCount: 0,
  });
  await say(platform, alice, roomId, 'signed');
  await hook.until(() => hook.accepted.length === 1);
  expect(hook.deliveries[0]!.secret).toBe(secret);
  const listed = await call(platform.chatUrl, 'GET', '/api/v1/webhooks', { token: alice.token });
  const mine = listed.body.data.find((w: any) => w.botId === bot.id);
  expect(mine).toMatchObject({ url: hook.url, hasSecret: true });
  expect(JSON.stringify(listed.body)).not.toContain(secret);
  expect(JSON.stringify((await call(platform.chatUrl, 'GET', `/api/v1/bots/${bot.id}`, { token: alice.token })).body)).not.toContain(
    secret,
  );
});

test('a long poll waiting when a webhook is set answers 409', async () => {
  const { bot } = await scene();
  const hook = await receiver();
  const poll = botCall(platform, bot.token, 'getUpdates', { timeout: 30 });
  await new Promise((r) => setTimeout(r, 200));
  resultOf(await botCall(platform, bot.token, 'setWebhook', { url: hook.url }));
  expectBotError(await poll, 409);
});

test('a webhook set while the relay stores an update for the bot: the relay requests its delivery, no sweep needed', async () => {
  const { alice, bot, roomId } = await scene();
  const hook = await receiver();
  // As setWebhook writes it (the bot's row locked, then the webhook), but committed only once the relay waits on that
  // lock, and with no delivery request of its own: only the relay's request can bring the update before the sweep's
  // minute.
  const client = await platform.db.connect();
  try {
    await client.query('begin');
    await client.query('select id from bots where id = $1 for update', [bot.id]);
    await client.query('update bots set webhook_url = $2 where id = $1', [bot.id, hook.url]);
    await say(platform, alice, roomId, 'stored while the webhook is set');
    const waiting = `select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
    await eventually(async () => (await count(platform.db, waiting)) > 0);
    await client.query('commit');
  } finally {
    client.release();
  }
  await hook.until(() => hook.accepted.length === 1);
  expect(hook.accepted[0].message.text).toBe('stored while the webhook is set');
});
