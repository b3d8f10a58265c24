// Starts the platform in one process: infrastructure (external or embedded), migrations, the listeners
// named in SERVICES and the queue workers; stop() shuts everything down in reverse order.
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { buildChatListener } from '../chat/listener.js';
import { buildPartnerListener } from '../partner/listener.js';
import { KeyLookup } from '../partner/gate/key-lookup.js';
import { LastUsedRecorder } from '../partner/gate/last-used.js';
import { RateLimiter } from '../partner/gate/rate-limit.js';
import { IdempotencyStore } from '../partner/idempotency/store.js';
import { AccountCache } from '../core/auth/account-cache.js';
import { GateKeyCache } from '../platform/gate-key-cache.js';
import { reportUnusableKeys } from '../core/auth/key-strength.js';
import { SendLimit } from '../chat/auth/send-limit.js';
import { VerifyKeyCache } from '../core/auth/verify-key-cache.js';
import { createAuthenticator } from '../core/auth/authenticate.js';
import { startRealtimeGateway, type RealtimeGateway } from '../chat/realtime/gateway.js';
import { PresenceService } from '../chat/presence/service.js';
import { TypingService } from '../chat/presence/typing.js';
import { realtimeOptions } from '../chat/realtime/options.js';
import { resolveCursorSecret } from '../platform/cursor-secret.js';
import { registerConsole } from '../platform/http/console.js';
import { installCursorSecret } from '../platform/http/cursor.js';
import { AuditRecorder } from '../workspace/audit/recorder.js';
import { KeyLookup as SvcKeyLookup } from '../workspace/gate/key-lookup.js';
import { WorkspaceRateLimiter } from '../workspace/gate/rate-limit.js';
import { buildWorkspaceListener } from '../workspace/listener.js';
import { createSlaQueue, SlaTimers, startSlaWorker } from '../workspace/tickets/sla.js';
import { BotSendLimit } from '../chat/bots/api/send-limit.js';
import { createWebhookDeliveries, WebhookWorker } from '../chat/bots/delivery/queue.js';
import { botUpdatesConsumer } from '../chat/bots/updates/consumer.js';
import { UpdateWaiters } from '../chat/bots/updates/waiters.js';
import { readSharedCa } from '../chat/bots/delivery/tls.js';
import { createWebhookEngine } from '../core/webhooks/engine.js';
import { webhookIntake } from '../core/webhooks/intake.js';
import { startWebhookWorkers, type WebhookWorkers } from '../core/webhooks/workers.js';
import { systemClock, type Clock } from '../platform/clock.js';
import { migrate, openOrm, type Orm } from '../platform/db/orm.js';
import { createSqlPool, type SqlPool } from '../platform/db/sql.js';
import { openReadRouter } from '../platform/db/open-read-router.js';
import type { ReadRouter } from '../platform/db/read-router.js';
import { resolveInfra } from '../platform/infra/index.js';
import type { Logger } from '../platform/logger.js';
import { createQueues, startWorkers } from '../platform/queues.js';
import { entities } from './entities.js';
import { eventLogPruneTask, realtimeEventLog } from '../chat/realtime/outbox-readers.js';
import { botUpdatesPruneTask } from '../chat/bots/updates/prune.js';
import { auditPruneTask } from '../workspace/audit/service.js';
import { idempotencyPruneTask } from '../partner/idempotency/prune.js';
import { checkReadiness } from '../platform/readiness.js';
import { cleanupUploads } from '../chat/media/cleanup.js';
import { mediaStore } from '../core/media/store.js';
import { startTimeWorkers, sweepDue } from '../chat/time/worker.js';
import { connectRedis } from '../platform/redis.js';
import { installDependencyTimeouts } from '../platform/dependency-timeouts.js';
import { isClusterWorker } from '../platform/cluster.js';
import { startMetrics, watchGateway, watchPlatform } from './metrics.js';

export interface Platform {
  chat?: FastifyInstance;
  /** Base URL of the chat listener, when it runs. */
  chatUrl?: string;
  /** Address of the settings console (served by the chat listener), when it runs. */
  consoleUrl?: string;
  /** STOMP over WebSocket at /ws on the chat listener (docs/realtime.md). */
  realtime?: RealtimeGateway;
  partner?: FastifyInstance;
  /** Base URL of the partner listener, when it runs. */
  partnerUrl?: string;
  /** Writes the collected API-key last-used times now (normally every LAST_USED_FLUSH_MS). */
  flushKeyUsage?: () => Promise<void>;
  workspace?: FastifyInstance;
  /** Base URL of the workspace listener, when it runs. */
  workspaceUrl?: string;
  /** Writes the buffered workspace audit entries and key last-used times now (normally every SVC_AUDIT_FLUSH_MS). */
  flushSvcAudit?: () => Promise<void>;
  /** Fires the scheduled messages and reminders due by the platform's clock now (what the periodic sweep does). */
  sweepTime: () => Promise<{ scheduled: number; reminders: number }>;
  /** Deletes expired upload sessions and files of recalled messages now (what the cleanup job does). */
  cleanupUploads: () => Promise<{ expired: number; purged: number }>;
  /** Base URL of the operations listener (GET /metrics), when METRICS_PORT is set and this process serves it. */
  metricsUrl?: string;
  /** The webhook workers of this node (with `workers`): sweep() runs one sweeper pass now. */
  webhookWorkers?: WebhookWorkers;
  databaseUrl: string;
  /** The read router of DATABASE_READ_URLS; absent without replicas. */
  reads?: ReadRouter;
  redisUrl: string;
  /**
   * Registers work to run first when the platform stops, while listeners, pools and Redis are still up: e.g. telling
   * WebSocket clients to reconnect elsewhere (close code 1012) before the listeners drain. Hooks run together; one that
   * fails is logged and does not stop the others.
   */
  onDrain(hook: () => Promise<void>): void;
  /**
   * The drain: drain hooks, then every listener stops accepting connections and finishes its in-flight requests,
   * then the queue workers finish their current job (the outbox relay runs a last drain), then pools and servers close.
   */
  stop(): Promise<void>;
}

export async function startPlatform(config: Config, log: Logger, clock: Clock = systemClock): Promise<Platform> {
  const stops: Array<() => Promise<void>> = [];
  const drainHooks: Array<() => Promise<void>> = [];
  // Idempotent: every call after the first returns the first call's promise, so the stops run once, in reverse order.
  let stopping: Promise<void> | undefined;
  const stopAll = () =>
    (stopping ??= (async () => {
      await Promise.all(drainHooks.splice(0).map((hook) => hook().catch((err: unknown) => log.warn({ err }, 'drain hook failed'))));
      for (const stop of stops.splice(0).reverse()) {
        try {
          await stop();
        } catch (err) {
          log.warn({ err }, 'error during shutdown');
        }
      }
    })());
  try {
    installDependencyTimeouts(config.dependencyTimeouts);
    const infra = await resolveInfra(config, log);
    stops.push(infra.stop);

    const orm = await openOrm({ databaseUrl: infra.databaseUrl, entities });
    stops.push(() => orm.close());
    const sql = createSqlPool(infra.databaseUrl);
    stops.push(() => sql.end());
    const applied = await migrateExclusively(sql, orm);
    if (applied.length > 0) log.info({ applied }, 'migrations applied');
    await orm.em
      .fork()
      .getConnection()
      .execute('insert into modules (code, name) values (?, ?) on conflict do nothing', [config.platformModule, 'Platform administration']);
    installCursorSecret(await resolveCursorSecret(sql, config.cursorSecret));

    const redis = connectRedis(infra.redisUrl, 'commands', { autoPipelining: true, failFast: true });
    const subscriber = connectRedis(infra.redisUrl, 'subscriber', { blocking: true });
    stops.push(async () => {
      redis.disconnect();
      subscriber.disconnect();
    });
    const reads = await openReadRouter(sql, redis, config.readReplicas, log);
    if (reads) stops.push(() => reads.replicas.close());
    const queues = createQueues(infra.redisUrl, log, config.relayIntervalMs);
    stops.push(() => queues.close());

    const media = mediaStore(config.media, config.dataDir);
    const platform: Platform = {
      databaseUrl: infra.databaseUrl,
      ...(reads ? { reads } : {}),
      redisUrl: infra.redisUrl,
      sweepTime: () => sweepDue({ sql, clock, queues }),
      cleanupUploads: () => cleanupUploads({ sql, clock, queues }, media),
      onDrain: (hook) => void drainHooks.push(hook),
      stop: stopAll,
    };

    // Bots: long polls wait on this node for updates made on any node; webhook deliveries go through a queue.
    const botWaiters = new UpdateWaiters(redis);
    const botDeliveries = createWebhookDeliveries(infra.redisUrl, log);
    stops.push(() => botDeliveries.close());
    const webhookPolicy = { allowHttp: config.botWebhookAllowHttp, allowPrivate: config.botWebhookAllowPrivate };

    const webhooks = await createWebhookEngine({ sql, redisUrl: infra.redisUrl, clock, log, settings: config.webhooks });
    stops.push(() => webhooks.close());

    if (config.services.includes('workers')) {
      const webhookWorkers = await startWebhookWorkers(webhooks, () => queues.requestOutboxDrain());
      stops.push(() => webhookWorkers.close());
      platform.webhookWorkers = webhookWorkers;
      const botUpdates = botUpdatesConsumer({ waiters: botWaiters, deliveries: botDeliveries, log, now: () => clock.now() });
      const workers = await startWorkers(sql, infra.redisUrl, queues, config.outboxPollMs, log, {
        readers: { logs: [realtimeEventLog], consumers: [botUpdates, webhookIntake(webhooks)] },
        pruneTasks: [
          idempotencyPruneTask(sql),
          auditPruneTask(sql),
          eventLogPruneTask(sql, config.realtimeRetentionHours),
          botUpdatesPruneTask(sql),
        ],
      });
      stops.push(() => workers.close());
      const webhookWorker = new WebhookWorker(
        sql,
        infra.redisUrl,
        botDeliveries,
        { ...webhookPolicy, timeoutMs: config.botWebhookTimeoutMs, retryBaseMs: config.botWebhookRetryBaseMs, retryMaxMs: config.botWebhookRetryMaxMs, caPem: readSharedCa(config.webhooks.caFile) },
        clock,
        log,
      );
      await webhookWorker.start();
      stops.push(() => webhookWorker.close());
      const timeWorkers = await startTimeWorkers(
        { sql, clock, queues, media },
        infra.redisUrl,
        { sweepMs: config.scheduleSweepMs, cleanupMs: config.uploadCleanupIntervalMs },
        log,
      );
      stops.push(() => timeWorkers.close());
      log.info('workers started');
    }
    // Ticket SLA timers: queued by the workspace listener, run by the workers.
    const slaQueue = config.services.includes('workspace') || config.services.includes('workers') ? createSlaQueue(infra.redisUrl) : undefined;
    if (slaQueue) stops.push(() => slaQueue.close());
    const unwatch = watchPlatform(sql, [queues.outbox, queues.maintenance, queues.time, botDeliveries.queue, webhooks.queue, ...(slaQueue ? [slaQueue.queue] : [])]);
    stops.push(async () => unwatch());
    if (slaQueue && config.services.includes('workers')) {
      const slaWorker = await startSlaWorker({ sql, clock, queues }, infra.redisUrl, slaQueue.queue, log);
      stops.push(() => slaWorker.close());
    }

    const verifyKeys = new VerifyKeyCache(orm, redis, config.verifyKeyCacheTtlMs, clock);
    const accounts = new AccountCache(sql, redis, config.accountCacheTtlMs, clock);
    const gateKeys = new GateKeyCache(redis, config.keyCacheTtlMs, clock);
    if (config.services.includes('chat') || config.services.includes('partner') || config.services.includes('workspace')) {
      await reportUnusableKeys(sql, log);
      stops.push(await verifyKeys.listen(subscriber));
      stops.push(await accounts.listen(subscriber));
      stops.push(await gateKeys.listen(subscriber));
    }
    const readiness = () => checkReadiness(sql, redis);
    const metrics = await startMetrics(config, log, readiness, isClusterWorker());
    if (metrics) {
      stops.push(() => metrics.close());
      platform.metricsUrl = metrics.url;
    }
    // The console's page origin: listed ones, else the chat listener's (known once it listens), under both local names.
    let consoleOrigins = config.consoleOrigins;
    const allowedOrigins = () => consoleOrigins;
    const originsOf = (port: number) => [...new Set([config.host, '127.0.0.1', 'localhost'])].map((h) => `http://${h}:${port}`);
    if (consoleOrigins.length === 0) consoleOrigins = originsOf(config.chatPort);

    if (config.services.includes('chat')) {
      stops.push(await botWaiters.listen(subscriber));
      const presence = {
        typing: new TypingService(sql, redis, config.realtimeTypingIntervalMs),
        presence: new PresenceService(sql, redis, (err: unknown) => log.error({ err }, 'realtime: presence announcement failed')),
      };
      // Stopped after the listener (stops run in reverse): the sessions it closes are not announced any more.
      stops.push(async () => presence.presence.close());
      const chat = await buildChatListener({
        deps: { orm, sql, reads, clock, queues, verifyKeys, accounts, config, gateKeys },
        log,
        bodyLimit: config.bodyLimitBytes,
        audience: config.jwtAudience,
        maxTokenLifetimeSeconds: config.maxTokenLifetimeSeconds,
        sendLimit: new SendLimit(redis, config.sendRateLimitPerMinute, clock),
        readiness,
        media,
        bots: {
          waiters: botWaiters,
          deliveries: botDeliveries,
          webhookPolicy,
          sendLimit: new BotSendLimit(redis, config.botSendRatePerSecond, clock),
          longPollMaxSeconds: config.botLongPollMaxSeconds,
        },
        presence,
        timeouts: config,
      });
      const portOf = (url: string | undefined, fallback: number) => (url ? Number(new URL(url).port) : fallback);
      await registerConsole(chat, () => ({
        partner: config.consolePartnerUrl ? { url: config.consolePartnerUrl } : { port: portOf(platform.partnerUrl, config.partnerPort) },
        workspace: config.consoleWorkspaceUrl ? { url: config.consoleWorkspaceUrl } : { port: portOf(platform.workspaceUrl, config.workspacePort) },
      }));
      const address = await chat.listen({ host: config.host, port: config.chatPort });
      stops.push(() => chat.close());
      const realtime = await startRealtimeGateway({
        server: chat.server,
        sql,
        redisUrl: infra.redisUrl,
        publisher: redis,
        clock,
        log,
        options: realtimeOptions(config),
        ...presence,
        authenticate: createAuthenticator(accounts, verifyKeys, clock, {
          audience: config.jwtAudience,
          platformModule: config.platformModule,
          maxTokenLifetimeSec: config.maxTokenLifetimeSeconds,
        }),
      });
      // A drain hook: sockets get their reconnect notice before any listener starts draining.
      drainHooks.push(() => realtime.stop());
      const unwatchRealtime = watchGateway(realtime);
      stops.push(async () => unwatchRealtime());
      platform.realtime = realtime;
      platform.chat = chat;
      platform.chatUrl = address;
      platform.consoleUrl = `${address}/console/`;
      if (config.consoleOrigins.length === 0) consoleOrigins = originsOf(Number(new URL(address).port));
      log.info({ address }, 'chat listener ready');
    }

    if (config.services.includes('partner')) {
      const lastUsed = new LastUsedRecorder(sql, clock, log);
      lastUsed.start(config.lastUsedFlushMs);
      stops.push(() => lastUsed.stop());
      const partner = await buildPartnerListener({
        deps: { orm, sql, reads, clock, config, queues, gateKeys },
        gate: {
          limiter: new RateLimiter(redis, { perMinute: config.rateLimitPerMinute, perDay: config.rateLimitPerDay }, clock),
          keys: new KeyLookup(sql, clock, gateKeys),
          lastUsed,
        },
        idempotency: new IdempotencyStore(sql, clock),
        verifyKeys,
        accounts,
        log,
        bodyLimit: config.bodyLimitBytes,
        audience: config.jwtAudience,
        maxTokenLifetimeSeconds: config.maxTokenLifetimeSeconds,
        trustProxy: config.trustProxy,
        readiness,
        allowedOrigins,
        webhooks,
        timeouts: config,
        media,
      });
      const address = await partner.listen({ host: config.host, port: config.partnerPort });
      stops.push(() => partner.close());
      platform.partner = partner;
      platform.partnerUrl = address;
      platform.flushKeyUsage = () => lastUsed.flush();
      log.info({ address }, 'partner listener ready');
    }

    if (config.services.includes('workspace')) {
      const audit = new AuditRecorder(sql, log);
      audit.start(config.svcAuditFlushMs);
      stops.push(() => audit.stop());
      const workspace = await buildWorkspaceListener({
        deps: { orm, sql, reads, clock, config, queues, gateKeys, sla: slaQueue && new SlaTimers(slaQueue.queue, clock, log) },
        keys: new SvcKeyLookup(sql, clock, gateKeys),
        limiter: new WorkspaceRateLimiter(redis, clock),
        audit,
        verifyKeys,
        accounts,
        maxTokenLifetimeSeconds: config.maxTokenLifetimeSeconds,
        readiness,
        log,
        bodyLimit: config.bodyLimitBytes,
        audience: config.jwtAudience,
        trustProxy: config.trustProxy,
        allowedOrigins,
        webhooks,
        timeouts: config,
      });
      const address = await workspace.listen({ host: config.host, port: config.workspacePort });
      stops.push(() => workspace.close());
      platform.workspace = workspace;
      platform.workspaceUrl = address;
      platform.flushSvcAudit = () => audit.flush();
      log.info({ address }, 'workspace listener ready');
    }
    return platform;
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** Nodes starting together take turns: the first applies pending migrations, the others then find none. */
async function migrateExclusively(sql: SqlPool, orm: Orm): Promise<string[]> {
  const lock = await sql.connect();
  try {
    // Waiting for another node's migrations may take longer than any request may: no time-outs on this connection
    // (its session settings die with it, it is not pooled again).
    await lock.query("set statement_timeout = 0; set lock_timeout = 0; select pg_advisory_lock(hashtext('platform:migrations'))");
    return await migrate(orm);
  } finally {
    await lock.query("select pg_advisory_unlock(hashtext('platform:migrations'))").catch(() => undefined);
    lock.release(true);
  }
}
