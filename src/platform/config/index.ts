// Environment schema, validated once at start so that a bad value fails with a clear message.
import { addresses } from './addresses.js';
import { apiSettings } from './api.js';
import { botSettings } from './bots.js';
import { ConfigError, int, type Env } from './env.js';
import { mediaSettings } from './media.js';
import { httpTimeouts, processSettings } from './process.js';
import { realtimeSettings } from './realtime.js';
import type { Config } from './types.js';
import { webhookConfig } from './webhooks.js';

export { ConfigError, parseBoolean } from './env.js';
export { maxWebhookAttempts } from './webhooks.js';
export type { Config, MediaStoreConfig, ReadReplicaConfig, SchemaCompilation, ServiceName, WebhookConfig } from './types.js';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: Env = process.env): Config {
  const logLevel = env.LOG_LEVEL ?? 'info';
  if (!logLevels.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${logLevels.join(', ')}, got "${logLevel}"`);
  // Read group by group in this order, so that of several bad variables the same one is reported first as before.
  return {
    ...addresses(env),
    logLevel,
    ...apiSettings(env),
    ...realtimeSettings(env),
    ...mediaSettings(env),
    scheduleSweepMs: int(env, 'SCHEDULE_SWEEP_MS', 5_000, 100, 3_600_000),
    ...botSettings(env),
    webhooks: webhookConfig(env),
    ...httpTimeouts(env),
    ...processSettings(env),
  };
}
