// Outbound webhooks of the workspace API: targets, retries, secrets at rest, the Owner's warning mail.
import { ConfigError, flag, int, url, type Env } from './env.js';
import type { WebhookConfig } from './types.js';

/** The seed's limit: at most 6 delivery attempts, after which the webhook is paused. */
export const maxWebhookAttempts = 6;

function retrySchedule(env: Env): number[] {
  const raw = env.WEBHOOK_RETRY_SCHEDULE;
  if (raw === undefined || raw.trim() === '') return [0, 60, 300, 1800, 7200, 43200];
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length > maxWebhookAttempts || parts.some((p) => !/^\d{1,7}$/.test(p) || Number(p) > 604_800)) {
    throw new ConfigError(
      `WEBHOOK_RETRY_SCHEDULE must be 1 to ${maxWebhookAttempts} comma-separated whole seconds (each at most 604800; one per delivery attempt), got "${raw}"`,
    );
  }
  return parts.map(Number);
}

function webhookSecretKey(env: Env): Buffer | undefined {
  const raw = env.WEBHOOK_SECRET_KEY;
  if (raw === undefined || raw === '') return undefined;
  const key = /^[0-9a-fA-F]{64}$/.test(raw)
    ? Buffer.from(raw, 'hex')
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(raw)
      ? Buffer.from(raw, 'base64')
      : undefined;
  if (key?.length !== 32) throw new ConfigError('WEBHOOK_SECRET_KEY must be 32 bytes as 64 hex digits or base64');
  return key;
}

export function webhookConfig(env: Env): WebhookConfig {
  return {
    allowPrivateTargets: flag(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS'),
    caFile: env.WEBHOOK_CA_FILE === '' ? undefined : env.WEBHOOK_CA_FILE,
    retrySchedule: retrySchedule(env),
    secretKey: webhookSecretKey(env),
    timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 60_000),
    sweepMs: int(env, 'WEBHOOK_SWEEP_MS', 5_000, 100, 3_600_000),
    concurrency: int(env, 'WEBHOOK_CONCURRENCY', 64, 1, 1_000),
    smtpUrl: url(env, 'SMTP_URL', ['smtp', 'smtps']),
    smtpFrom: env.SMTP_FROM || 'Webhooks <webhooks@localhost>',
  };
}
