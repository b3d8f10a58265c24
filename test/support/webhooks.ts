// Webhook test fixtures: a platform on a database and Redis of its own (so no other test file's worker takes its
// delivery jobs) wired to a real HTTPS receiver (WEBHOOK_CA_FILE = the receiver's CA) and a real SMTP server, with
// a short retry schedule; and events written to the outbox exactly as workspace changes write them (topic svc.event).
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Clock } from '../../src/platform/clock.js';
import type { Config, WebhookConfig } from '../../src/platform/config/index.js';
import { svcEventTopic, type Envelope } from '../../src/core/webhooks/events.js';
import { call, isolatedInfra, startTestPlatform, testConfig, type TestPlatform } from './platform.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

export interface WebhookRig {
  platform: TestPlatform;
  receiver: WebhookReceiver;
  smtp: SmtpSink;
  /** Another platform on the same database and Redis, e.g. without workers or with other settings. */
  node(overrides: Partial<Config>, webhooks?: Partial<WebhookConfig>): Promise<TestPlatform>;
  stop(): Promise<void>;
}

/** clock: the platform's time (a ManualClock moves the retry schedule without waiting for it). */
export async function webhookRig(
  webhooks: Partial<WebhookConfig> = {},
  overrides: Partial<Config> = {},
  clock?: Clock,
): Promise<WebhookRig> {
  const receiver = await startWebhookReceiver();
  const smtp = await startSmtpSink();
  const infra = await isolatedInfra();
  const settings = (extra: Partial<WebhookConfig>): WebhookConfig => ({
    ...testConfig().webhooks,
    allowPrivateTargets: true,
    caFile: receiver.caFile,
    retrySchedule: [0, 1, 1, 1, 1, 1],
    timeoutMs: 2_000,
    sweepMs: 500,
    smtpUrl: smtp.url,
    ...webhooks,
    ...extra,
  });
  const base = { databaseUrl: infra.databaseUrl, redisUrl: infra.redisUrl, outboxPollMs: 200 };
  const platform = await startTestPlatform(
    {
      ...base,
      services: ['workspace', 'partner', 'workers'],
      webhooks: settings({}),
      ...overrides,
    },
    clock,
  );
  const others: TestPlatform[] = [];
  return {
    platform,
    receiver,
    smtp,
    async node(o, w = {}) {
      const node = await startTestPlatform({ ...base, webhooks: settings(w), ...o });
      others.push(node);
      return node;
    },
    async stop() {
      for (const node of others) await node.stop();
      await platform.stop();
      await infra.drop();
      await receiver.close();
      await smtp.close();
    },
  };
}

export interface EmitOptions {
  workspaceId: string;
  event: string;
  environment?: string;
  data?: Record<string, unknown>;
  changes?: Record<string, unknown>;
}

/** Writes a workspace event to the outbox as the change that causes it would (the intake contract). */
export async function emitEvent(db: pg.Pool, options: EmitOptions): Promise<Envelope> {
  const envelope: Envelope = {
    id: `evt_${randomBytes(16).toString('hex')}`,
    event: options.event,
    occurred_at: new Date().toISOString(),
    workspace_id: options.workspaceId,
    api_version: 'v1',
    data: options.data ?? { id: randomBytes(8).toString('hex') },
    ...(options.changes ? { changes: options.changes } : {}),
  };
  await db.query('insert into outbox (topic, payload) values ($1, $2)', [
    svcEventTopic,
    JSON.stringify({ environment: options.environment ?? 'live', envelope }),
  ]);
  return envelope;
}

/** Calls the workspace listener with a svc_ key. */
export function svc(platform: TestPlatform, key: string, method: string, path: string, body?: unknown) {
  return call(platform.workspaceUrl, method, path, {
    headers: { authorization: `Bearer ${key}` },
    ...(body !== undefined ? { body } : {}),
  });
}

/** Polls until `check` returns a value other than undefined; throws after timeoutMs. */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 20_000, what = 'the condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not hold within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The received requests of one delivery id, in arrival order. */
export function requestsOf(receiver: WebhookReceiver, deliveryId: string) {
  return receiver.received.filter((r) => r.headers['x-svc-delivery'] === deliveryId);
}

/**
 * A receiver that de-duplicates on the envelope's id, as the seed invites: the requests of `path` in arrival order,
 * each processed the first time its body's id is seen and skipped after that.
 */
export function deduplicatedByBodyId(receiver: WebhookReceiver, path: string): { processed: string[]; skipped: string[] } {
  const seen = new Set<string>();
  const processed: string[] = [];
  const skipped: string[] = [];
  for (const r of receiver.received) {
    if (r.path.split('?')[0] !== path || r.headers['x-svc-event'] === 'ping') continue;
    const id = String(JSON.parse(r.body.toString('utf8')).id);
    if (seen.has(id)) skipped.push(id);
    else processed.push(id);
    seen.add(id);
  }
  return { processed, skipped };
}
