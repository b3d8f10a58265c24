// The SDK's webhook methods against the real listener and a real HTTPS receiver, and verifyWebhook: the signature over
// the raw bytes in constant time (Web Crypto), the timestamp tolerance and the timestamp-bound signature.
import { createHmac } from 'node:crypto';
import type { TestPlatform } from '../../../test/support/platform.js';
import { svcWorkspace } from '../../../test/support/workspace.js';
import { emitEvent, webhookRig, type WebhookRig } from '../../../test/support/webhooks.js';
import { createWorkspaceClient, verifyWebhook, WebhookVerificationError, type WorkspaceClient } from '../src/index.js';

const secret = 'whsec_test-secret-0123456789abcdef';
const body =
  '{"id":"evt_1","event":"lead.created","occurred_at":"2026-11-24T12:00:00.000Z","workspace_id":"w","api_version":"v1","data":{"id":"l1","name":"Zoë"}}';
const now = 1_795_000_000;
const sign = (material: string) => `sha256=${createHmac('sha256', secret).update(material).digest('hex')}`;
const headers = (overrides: Record<string, string | undefined> = {}) => ({
  'x-svc-signature': sign(body),
  'x-svc-timestamp': String(now),
  'x-svc-timestamp-signature': sign(`${now}.${body}`),
  'x-svc-delivery': 'd-1',
  'x-svc-event': 'lead.created',
  'x-svc-workspace': 'w',
  'x-svc-attempt': '2',
  ...overrides,
});
const at = (seconds: number) => () => seconds * 1000;

async function failure(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error;
    throw error;
  }
  throw new Error('verification passed');
}

describe('verifyWebhook', () => {
  test('accepts the raw body as a string, bytes or an ArrayBuffer, with Node or fetch headers', async () => {
    const expected = { deliveryId: 'd-1', event: 'lead.created', workspaceId: 'w', attempt: 2, timestamp: now, envelope: JSON.parse(body) };
    const bytes = Buffer.from(body);
    await expect(verifyWebhook({ rawBody: body, headers: headers(), secret, now: at(now) })).resolves.toEqual(expected);
    await expect(verifyWebhook({ rawBody: bytes, headers: headers(), secret, now: at(now + 299) })).resolves.toEqual(expected);
    await expect(
      verifyWebhook({
        rawBody: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length),
        headers: new Headers(headers()),
        secret,
        now: at(now - 299),
        requireTimestampSignature: true,
      }),
    ).resolves.toEqual(expected);
    // The seed's signature alone (no timestamp-bound one) passes unless it is required.
    await expect(
      verifyWebhook({ rawBody: body, headers: headers({ 'x-svc-timestamp-signature': undefined }), secret, now: at(now) }),
    ).resolves.toMatchObject({ deliveryId: 'd-1' });
    expect(
      (
        await failure(
          verifyWebhook({
            rawBody: body,
            headers: headers({ 'x-svc-timestamp-signature': undefined }),
            secret,
            now: at(now),
            requireTimestampSignature: true,
          }),
        )
      ).reason,
    ).toBe('missing_header');
  });

  test('refuses a changed body, re-serialised JSON, a wrong secret, a stale or moved timestamp and bad headers', async () => {
    const reasons = async (o: Partial<Parameters<typeof verifyWebhook>[0]>) =>
      (await failure(verifyWebhook({ rawBody: body, headers: headers(), secret, now: at(now), ...o }))).reason;
    expect(await reasons({ rawBody: body.replace('Zoë', 'Zoe') })).toBe('invalid_signature');
    expect(await reasons({ rawBody: JSON.stringify(JSON.parse(body), null, 1) })).toBe('invalid_signature');
    expect(await reasons({ secret: `${secret}x` })).toBe('invalid_signature');
    expect(await reasons({ now: at(now + 301) })).toBe('timestamp_outside_tolerance');
    expect(await reasons({ now: at(now + 10), toleranceSeconds: 5 })).toBe('timestamp_outside_tolerance');
    // A captured delivery replayed later under a fresh timestamp: the body signature still matches, the bound one not.
    expect(await reasons({ headers: headers({ 'x-svc-timestamp': String(now + 3600) }), now: at(now + 3600) })).toBe('invalid_signature');
    expect(await reasons({ headers: headers({ 'x-svc-signature': undefined }) })).toBe('missing_header');
    expect(await reasons({ headers: headers({ 'x-svc-signature': 'md5=abc' }) })).toBe('malformed_header');
    expect(await reasons({ headers: headers({ 'x-svc-timestamp': 'yesterday' }) })).toBe('malformed_header');
    const notJson = 'not json';
    expect(
      await reasons({
        rawBody: notJson,
        headers: headers({ 'x-svc-signature': sign(notJson), 'x-svc-timestamp-signature': sign(`${now}.${notJson}`) }),
      }),
    ).toBe('malformed_body');
    await expect(verifyWebhook({ rawBody: JSON.parse(body), headers: headers(), secret })).rejects.toThrow(TypeError);
  });
});

describe('webhook methods of the key client', () => {
  let rig: WebhookRig;
  let platform: TestPlatform;
  let client: WorkspaceClient;
  let workspaceId: string;

  beforeAll(async () => {
    rig = await webhookRig();
    platform = rig.platform;
    const ws = await svcWorkspace(platform);
    workspaceId = ws.id;
    client = createWorkspaceClient({ baseUrl: platform.workspaceUrl, apiKey: (await ws.key(['webhook.*'])).key, sleep: async () => {} });
  });
  afterAll(async () => {
    await rig?.stop();
  });

  test('create, list, pause, resume, test, the delivery log; a delivery verified by verifyWebhook', async () => {
    const created = await client.createWebhook({ body: { name: 'SDK', url: `${rig.receiver.origin}/sdk`, events: ['deal.won'] } });
    expect(created.status).toBe('Active');
    const listed = [];
    for await (const w of client.paginate('listWebhooks', { query: { limit: 1 } })) listed.push(w.id);
    expect(listed).toEqual([created.id]);
    expect((await client.pauseWebhook({ path: { id: created.id } })).status).toBe('Paused');
    expect((await client.resumeWebhook({ path: { id: created.id } })).status).toBe('Active');
    const tested = await client.testWebhook({ path: { id: created.id }, body: { event: 'deal.won' } });
    expect(tested).toMatchObject({ ok: true, status: 200 });

    const emitted = await emitEvent(platform.db, {
      workspaceId,
      event: 'deal.won',
      data: { id: 'deal-1', name: 'Big', stage: 'won', amount: 10, owner_id: null },
    });
    await rig.receiver.waitFor((r) => r.some((x) => x.body.toString().includes(emitted.id)));
    const request = rig.receiver.received.find((x) => x.body.toString().includes(emitted.id))!;
    const verified = await verifyWebhook({
      rawBody: request.body,
      headers: request.headers,
      secret: created.secret,
      toleranceSeconds: 60,
      requireTimestampSignature: true,
    });
    expect(verified.envelope).toEqual(emitted);

    const log = [];
    for await (const d of client.paginate('listWebhookDeliveries', { path: { id: created.id } })) log.push(d.kind);
    expect(log).toContain('ping');
    expect(log).toContain('test');
  });
});
