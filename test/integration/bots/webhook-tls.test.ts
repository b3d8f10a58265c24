// Bot webhooks to HTTPS receivers whose certificates come from private CAs: trusted through the certificate uploaded
// with setWebhook (a multipart file part, as Telegram takes it) or through the shared WEBHOOK_CA_FILE. A new
// setWebhook starts the retry backoff afresh: the retry base here is a minute, so a delivery that waited for the old
// backoff would not arrive within the test's patience.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call, isolatedInfra, startTestPlatform, testConfig, type TestPlatform } from '../../support/platform.js';
import { createTinyCa, type TinyCa } from '../../support/tls-ca.js';
import { botCall, createBot, expectBotError, groupWith, resultOf, say, confirmJoined } from '../../helpers/bots.js';

/** An HTTPS receiver on 127.0.0.1 with a certificate of the given CA, recording the updates it takes. */
class TlsReceiver {
  readonly updates: any[] = [];
  url = '';
  private readonly server: Server;

  constructor(ca: TinyCa) {
    const issued = ca.issue(['127.0.0.1']);
    this.server = createServer({ key: issued.keyPem, cert: issued.certPem }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.updates.push(JSON.parse(Buffer.concat(chunks).toString()));
        res.writeHead(200).end();
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const sharedCa = createTinyCa('Shared webhook CA');
const privateCa = createTinyCa('A receiver of its own');
let platform: TestPlatform;
let infra: Awaited<ReturnType<typeof isolatedInfra>>;
const receivers: TlsReceiver[] = [];
beforeAll(async () => {
  // A database and queue of its own: another test file's webhook worker (other CA file, other backoff) must not take
  // these deliveries.
  infra = await isolatedInfra();
  const caFile = join(tmpdir(), `bot-webhook-ca-${randomUUID()}.pem`);
  await writeFile(caFile, sharedCa.certPem);
  platform = await startTestPlatform({
    services: ['chat', 'workers'],
    databaseUrl: infra.databaseUrl,
    redisUrl: infra.redisUrl,
    botWebhookAllowPrivate: true,
    botWebhookRetryBaseMs: 60_000,
    botWebhookRetryMaxMs: 60_000,
    webhooks: { ...testConfig().webhooks, caFile },
  });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await platform?.stop();
  await infra?.drop();
});

async function receiver(ca: TinyCa): Promise<TlsReceiver> {
  const r = await new TlsReceiver(ca).start();
  receivers.push(r);
  return r;
}

async function scene() {
  const tenant = await platform.tenant();
  const alice = await tenant.account();
  const bot = await createBot(platform, tenant);
  const roomId = await groupWith(platform, alice, [bot.accountId]);
  await confirmJoined(platform, bot.token);
  expect(
    (await call(platform.chatUrl, 'PATCH', `/api/v1/bots/${bot.id}/rooms/${roomId}`, { token: alice.token, body: { readAll: true } }))
      .status,
  ).toBe(200);
  return { alice, bot, roomId };
}

async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** setWebhook as Telegram libraries send a certificate: multipart/form-data with the PEM as a file part. */
async function setWebhookWithCertificate(token: string, url: string, pem: string): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.set('url', url);
  form.set('certificate', new Blob([pem], { type: 'application/x-pem-file' }), 'cert.pem');
  const res = await fetch(`${platform.chatUrl}/bot${token}/setWebhook`, { method: 'POST', body: form });
  return { status: res.status, body: await res.json() };
}

test('a receiver of a private CA fails with an SSL error until its certificate is uploaded; the new setWebhook retries at once', async () => {
  const { alice, bot, roomId } = await scene();
  const hook = await receiver(privateCa);
  resultOf(await botCall(platform, bot.token, 'setWebhook', { url: hook.url }));
  await say(platform, alice, roomId, 'over tls');
  const failed = await until(
    () => botCall(platform, bot.token, 'getWebhookInfo').then(resultOf),
    (i) => i.last_error_message !== undefined,
  );
  expect(failed.last_error_message).toMatch(/^SSL error: /);
  expect(failed.has_custom_certificate).toBe(false);
  expect(hook.updates).toEqual([]);
  const backoff = await platform.db.query('select webhook_failures, webhook_retry_at from bots where id = $1', [bot.id]);
  expect(backoff.rows[0].webhook_failures).toBe(1);
  expect(backoff.rows[0].webhook_retry_at.getTime()).toBeGreaterThan(Date.now() + 30_000);

  // The next retry is a minute away; setting the webhook again (now with the certificate) delivers at once.
  const set = await setWebhookWithCertificate(bot.token, hook.url, privateCa.certPem);
  expect(set).toEqual({ status: 200, body: { ok: true, result: true, description: 'Webhook was set' } });
  const delivered = await until(
    async () => hook.updates,
    (u) => u.length === 1,
  );
  expect(delivered.map((u) => u.message.text)).toEqual(['over tls']);
  const info = resultOf(await botCall(platform, bot.token, 'getWebhookInfo'));
  expect(info).toMatchObject({ url: hook.url, has_custom_certificate: true, pending_update_count: 0 });
  const reset = await platform.db.query('select webhook_failures, webhook_retry_at from bots where id = $1', [bot.id]);
  expect(reset.rows[0]).toEqual({ webhook_failures: 0, webhook_retry_at: null });
});

test('WEBHOOK_CA_FILE covers bot webhooks too', async () => {
  const { alice, bot, roomId } = await scene();
  const hook = await receiver(sharedCa);
  resultOf(await botCall(platform, bot.token, 'setWebhook', { url: hook.url }));
  await say(platform, alice, roomId, 'trusted by the shared file');
  const delivered = await until(
    async () => hook.updates,
    (u) => u.length === 1,
  );
  expect(delivered.map((u) => u.message.text)).toEqual(['trusted by the shared file']);
  expect(resultOf(await botCall(platform, bot.token, 'getWebhookInfo')).has_custom_certificate).toBe(false);
});

test('a certificate that is no PEM certificate is refused and changes nothing', async () => {
  const { bot } = await scene();
  const hook = await receiver(privateCa);
  const refused = await setWebhookWithCertificate(bot.token, hook.url, 'not a certificate');
  expect(refused.status).toBe(400);
  expect(refused.body).toEqual({
    ok: false,
    error_code: 400,
    description: 'Bad Request: bad webhook: the certificate must be a PEM X.509 certificate',
  });
  const broken = await setWebhookWithCertificate(bot.token, hook.url, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
  expect(broken.body.description).toBe('Bad Request: bad webhook: the certificate could not be read as a PEM X.509 certificate');
  expectBotError(
    await botCall(platform, bot.token, 'setWebhook', { url: hook.url, certificate: 'x'.repeat(20_000) }),
    400,
    /^Bad Request: body.certificate/,
  );
  expect(resultOf(await botCall(platform, bot.token, 'getWebhookInfo'))).toEqual({
    url: '',
    has_custom_certificate: false,
    pending_update_count: 0,
  });
});
