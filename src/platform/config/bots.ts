// The Bot API's send limit, long polls and webhook deliveries.
import { bool, int, type Env } from './env.js';

/** The Bot API's send limit, long polls and webhook deliveries. */
export function botSettings(env: Env) {
  return {
    botSendRatePerSecond: int(env, 'BOT_SEND_RATE_PER_SECOND', 30, 1, 1_000_000),
    botLongPollMaxSeconds: int(env, 'BOT_LONG_POLL_MAX_SECONDS', 50, 0, 3_600),
    botWebhookAllowHttp: bool(env, 'BOT_WEBHOOK_ALLOW_HTTP', false),
    botWebhookAllowPrivate: bool(env, 'BOT_WEBHOOK_ALLOW_PRIVATE', false),
    botWebhookTimeoutMs: int(env, 'BOT_WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
    botWebhookRetryBaseMs: int(env, 'BOT_WEBHOOK_RETRY_BASE_MS', 1_000, 10, 3_600_000),
    botWebhookRetryMaxMs: int(env, 'BOT_WEBHOOK_RETRY_MAX_MS', 300_000, 10, 86_400_000),
  };
}
