// What the parts of a node share once the foundation is up: the caches the listeners authenticate with, the bot
// and webhook deliveries, readiness and the console's origins. Built once by startPlatform, read by each part.
import type { Config } from '../platform/config/index.js';
import type { Clock } from '../platform/clock.js';
import type { Logger } from '../platform/logger.js';
import type { Readiness } from '../platform/readiness.js';
import type { GateKeyCache } from '../platform/gate-key-cache.js';
import type { AccountCache } from '../core/auth/account-cache.js';
import type { VerifyKeyCache } from '../core/auth/verify-key-cache.js';
import type { WebhookEngine } from '../core/webhooks/engine.js';
import type { createWebhookDeliveries } from '../chat/bots/delivery/queue.js';
import type { UpdateWaiters } from '../chat/bots/updates/waiters.js';
import type { createSlaQueue } from '../workspace/tickets/sla.js';
import type { Foundation } from './foundation.js';
import type { Shutdown } from './shutdown.js';

export interface Wiring {
  config: Config;
  log: Logger;
  clock: Clock;
  shutdown: Shutdown;
  base: Foundation;
  /** Bots: long polls wait on this node for updates made on any node; webhook deliveries go through a queue. */
  botWaiters: UpdateWaiters;
  botDeliveries: ReturnType<typeof createWebhookDeliveries>;
  webhookPolicy: { allowHttp: boolean; allowPrivate: boolean };
  webhooks: WebhookEngine;
  /** Ticket SLA timers: queued by the workspace listener, run by the workers; absent when neither runs here. */
  slaQueue?: ReturnType<typeof createSlaQueue>;
  verifyKeys: VerifyKeyCache;
  accounts: AccountCache;
  gateKeys: GateKeyCache;
  readiness: () => Promise<Readiness>;
  /** Browser origins of the settings console, read on every request. */
  allowedOrigins: () => readonly string[];
}
