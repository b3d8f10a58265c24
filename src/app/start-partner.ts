// The partner listener (SERVICES includes `partner`), convention A: API keys with rate limits, idempotency keys,
// key last-used times written in batches.
import { buildPartnerListener } from '../partner/listener.js';
import { KeyLookup } from '../partner/gate/key-lookup.js';
import { LastUsedRecorder } from '../partner/gate/last-used.js';
import { RateLimiter } from '../partner/gate/rate-limit.js';
import { IdempotencyStore } from '../partner/idempotency/store.js';
import type { Platform } from './platform.js';
import type { Wiring } from './wiring.js';

export async function startPartner(w: Wiring, platform: Platform): Promise<void> {
  const { config, log, clock, shutdown, gateKeys } = w;
  const { orm, sql, reads, redis, media } = w.base;
  const lastUsed = new LastUsedRecorder(sql, clock, log);
  lastUsed.start(config.lastUsedFlushMs);
  shutdown.add(() => lastUsed.stop());
  const partner = await buildPartnerListener({
    deps: { orm, sql, reads, clock, config, gateKeys },
    gate: {
      limiter: new RateLimiter(redis, { perMinute: config.rateLimitPerMinute, perDay: config.rateLimitPerDay }, clock),
      keys: new KeyLookup(sql, clock, gateKeys),
      lastUsed,
    },
    idempotency: new IdempotencyStore(sql, clock),
    verifyKeys: w.verifyKeys,
    accounts: w.accounts,
    log,
    bodyLimit: config.bodyLimitBytes,
    audience: config.jwtAudience,
    maxTokenLifetimeSeconds: config.maxTokenLifetimeSeconds,
    trustProxy: config.trustProxy,
    readiness: w.readiness,
    allowedOrigins: w.allowedOrigins,
    webhooks: w.webhooks,
    timeouts: config,
    media,
  });
  const address = await partner.listen({ host: config.host, port: config.partnerPort });
  shutdown.add(() => partner.close());
  platform.partner = partner;
  platform.partnerUrl = address;
  platform.flushKeyUsage = () => lastUsed.flush();
  log.info({ address }, 'partner listener ready');
}
