// Starts the platform in one process: infrastructure (external or embedded), migrations, the listeners
// named in SERVICES and the queue workers; stop() shuts everything down in reverse order.
import type { Config } from '../platform/config/index.js';
import { AccountCache } from '../core/auth/account-cache.js';
import { reportUnusableKeys } from '../core/auth/key-strength.js';
import { VerifyKeyCache } from '../core/auth/verify-key-cache.js';
import { createWebhookEngine } from '../core/webhooks/engine.js';
import { cleanupUploads } from '../chat/media/cleanup.js';
import { createWebhookDeliveries } from '../chat/bots/delivery/queue.js';
import { UpdateWaiters } from '../chat/bots/updates/waiters.js';
import { sweepDue } from '../chat/time/worker.js';
import { createSlaQueue } from '../workspace/tickets/sla.js';
import { systemClock, type Clock } from '../platform/clock.js';
import { isClusterWorker } from '../platform/cluster.js';
import { installDependencyTimeouts } from '../platform/dependency-timeouts.js';
import { installSchemaCompilation } from '../platform/http/schema-compilation.js';
import { GateKeyCache } from '../platform/gate-key-cache.js';
import type { Logger } from '../platform/logger.js';
import { checkReadiness } from '../platform/readiness.js';
import { startFoundation, type Foundation } from './foundation.js';
import { startMetrics, watchPlatform } from './metrics.js';
import type { Platform } from './platform.js';
import { createShutdown, type Shutdown } from './shutdown.js';
import { startChat } from './start-chat.js';
import { startPartner } from './start-partner.js';
import { startWorkspace } from './start-workspace.js';
import { startQueueWorkers, startSlaTimers } from './workers.js';
import type { Wiring } from './wiring.js';

export type { Platform } from './platform.js';

export async function startPlatform(config: Config, log: Logger, clock: Clock = systemClock): Promise<Platform> {
  const shutdown = createShutdown(log);
  try {
    installDependencyTimeouts(config.dependencyTimeouts);
    installSchemaCompilation(config.schemaCompilation);
    const base = await startFoundation(config, log, shutdown);
    const { sql, queues, media, infra } = base;
    const platform: Platform = {
      databaseUrl: infra.databaseUrl,
      ...(base.reads ? { reads: base.reads } : {}),
      redisUrl: infra.redisUrl,
      sweepTime: () => sweepDue({ sql, clock, queues }),
      cleanupUploads: () => cleanupUploads({ sql, clock, queues }, media),
      onDrain: shutdown.onDrain,
      stop: shutdown.stop,
    };
    // The console's page origin: listed ones, else the chat listener's (known once it listens), under both local names.
    const originsOf = (port: number) => [...new Set([config.host, '127.0.0.1', 'localhost'])].map((h) => `http://${h}:${port}`);
    let consoleOrigins = config.consoleOrigins.length > 0 ? config.consoleOrigins : originsOf(config.chatPort);
    const shared = await wire(config, log, clock, shutdown, base, () => consoleOrigins);

    if (config.services.includes('workers')) platform.webhookWorkers = await startQueueWorkers(shared);
    // Opened after the queue workers so that, stops running in reverse, it closes before them.
    const w = openSlaQueue(shared);
    const unwatch = watchPlatform(sql, [
      queues.outbox,
      queues.maintenance,
      queues.time,
      w.botDeliveries.queue,
      w.webhooks.queue,
      ...(w.slaQueue ? [w.slaQueue.queue] : []),
    ]);
    shutdown.add(async () => unwatch());
    if (config.services.includes('workers')) await startSlaTimers(w);
    await startCaches(w);
    const metrics = await startMetrics(config, log, w.readiness, isClusterWorker());
    if (metrics) {
      shutdown.add(() => metrics.close());
      platform.metricsUrl = metrics.url;
    }

    if (config.services.includes('chat')) {
      const address = await startChat(w, platform);
      if (config.consoleOrigins.length === 0) consoleOrigins = originsOf(Number(new URL(address).port));
    }
    if (config.services.includes('partner')) await startPartner(w, platform);
    if (config.services.includes('workspace')) await startWorkspace(w, platform);
    return platform;
  } catch (err) {
    await shutdown.stop();
    throw err;
  }
}

/** The parts every listener and worker shares, each stopped in reverse order of its start. */
async function wire(
  config: Config,
  log: Logger,
  clock: Clock,
  shutdown: Shutdown,
  base: Foundation,
  allowedOrigins: () => readonly string[],
): Promise<Wiring> {
  const { sql, redis, infra } = base;
  const botDeliveries = createWebhookDeliveries(infra.redisUrl, log);
  shutdown.add(() => botDeliveries.close());
  const webhooks = await createWebhookEngine({ sql, redisUrl: infra.redisUrl, clock, log, settings: config.webhooks });
  shutdown.add(() => webhooks.close());
  return {
    config,
    log,
    clock,
    shutdown,
    base,
    botWaiters: new UpdateWaiters(redis),
    botDeliveries,
    webhookPolicy: { allowHttp: config.botWebhookAllowHttp, allowPrivate: config.botWebhookAllowPrivate },
    webhooks,
    verifyKeys: new VerifyKeyCache(base.sql, redis, config.verifyKeyCacheTtlMs, clock),
    accounts: new AccountCache(sql, redis, config.accountCacheTtlMs, clock),
    gateKeys: new GateKeyCache(redis, config.keyCacheTtlMs, clock),
    readiness: () => checkReadiness(sql, redis),
    allowedOrigins,
  };
}

/** Ticket SLA timers: queued by the workspace listener, run by the workers; opened when either runs here. */
function openSlaQueue(w: Wiring): Wiring {
  if (!w.config.services.includes('workspace') && !w.config.services.includes('workers')) return w;
  const slaQueue = createSlaQueue(w.base.infra.redisUrl, w.log);
  w.shutdown.add(() => slaQueue.close());
  return { ...w, slaQueue };
}

/** Per-node caches of keys and accounts, emptied on every node through Redis when a row changes (any listener). */
async function startCaches(w: Wiring): Promise<void> {
  const { config, shutdown, base } = w;
  if (!config.services.includes('chat') && !config.services.includes('partner') && !config.services.includes('workspace')) return;
  await reportUnusableKeys(base.sql, w.log);
  shutdown.add(await w.verifyKeys.listen(base.subscriber));
  shutdown.add(await w.accounts.listen(base.subscriber));
  shutdown.add(await w.gateKeys.listen(base.subscriber));
}
