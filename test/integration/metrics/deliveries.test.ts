// Work behind the requests shows in the metrics: bot updates pending until a webhook takes them, webhook attempts by
// outcome and attempt number, the delivery queue's finished jobs, and rate-limit refusals by interface.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { botCall, createBot, groupWith, resultOf, say } from '../../helpers/bots.js';
import { eventually } from '../../helpers/expect.js';
import { call, startTestPlatform, type TestPlatform } from '../../support/platform.js';
import { sample, scrape } from './scrape.js';

let p: TestPlatform;
let receiver: Server;
let answered = 0;
beforeAll(async () => {
  p = await startTestPlatform({
    services: ['chat', 'workers'],
    metricsPort: 0,
    botWebhookAllowHttp: true,
    botWebhookAllowPrivate: true,
    botWebhookRetryBaseMs: 50,
    botWebhookRetryMaxMs: 200,
  });
  // Fails the first attempt, takes everything after it.
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(answered++ === 0 ? 500 : 200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => receiver?.close(resolve));
  await p?.stop();
});

test('pending bot updates, webhook attempts by outcome and attempt, and the delivery queue move', async () => {
  const tenant = await p.tenant();
  const alice = await tenant.account();
  const bot = await createBot(p, tenant);
  const roomId = await groupWith(p, alice, [bot.accountId]);
  expect((await call(p.chatUrl!, 'PATCH', `/api/v1/bots/${bot.id}/rooms/${roomId}`, { token: alice.token, body: { readAll: true } })).status).toBe(200);
  const before = await scrape(p.metricsUrl!);

  await say(p, alice, roomId, 'waiting for a webhook');
  await eventually(async () => (sample(await scrape(p.metricsUrl!), 'platform_bot_updates_pending') ?? 0) >= 1, 10_000);

  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  resultOf(await botCall(p, bot.token, 'setWebhook', { url }));
  const after = await eventually(async () => {
    const text = await scrape(p.metricsUrl!);
    return (sample(text, 'platform_webhook_deliveries_total', { kind: 'bot', outcome: 'succeeded' }) ?? 0) >= 1 ? text : undefined;
  }, 10_000);
  const delta = (name: string, labels: Record<string, string>) => (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
  expect(delta('platform_webhook_deliveries_total', { kind: 'bot', outcome: 'failed', attempt: '1' })).toBe(1);
  expect(delta('platform_webhook_deliveries_total', { kind: 'bot', outcome: 'succeeded', attempt: '2' })).toBe(1);
  expect(delta('platform_queue_jobs_finished_total', { queue: 'bot-webhooks', outcome: 'completed' })).toBeGreaterThanOrEqual(1);
  await eventually(async () => sample(await scrape(p.metricsUrl!), 'platform_bot_updates_pending') === 0, 10_000);
});

test('a refused send counts as a rate-limit refusal of its interface', async () => {
  const limited = await startTestPlatform({ services: ['chat'], sendRateLimitPerMinute: 1 });
  try {
    const tenant = await limited.tenant();
    const [alice, bob] = [await tenant.account(), await tenant.account()];
    const room = await call(limited.chatUrl!, 'POST', '/api/v1/rooms', { token: alice.token, body: { type: 'GROUP', name: 'Limited', memberIds: [bob.id] } });
    const roomId = (room.body as { data: { id: string } }).data.id;
    const before = await scrape(p.metricsUrl!);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(limited.chatUrl!, 'POST', `/api/v1/rooms/${roomId}/messages`, { token: alice.token, body: { text: `m${i}` } })).status);
    const refused = statuses.filter((s) => s === 429).length;
    expect(refused).toBeGreaterThanOrEqual(1);
    // The registry is the process's: the other platform's listener serves this one's counts too.
    const after = await scrape(p.metricsUrl!);
    const refusals = (text: string) => sample(text, 'platform_rate_limit_refusals_total', { interface: 'chat' }) ?? 0;
    expect(refusals(after) - refusals(before)).toBe(refused);
  } finally {
    await limited.stop();
  }
});
