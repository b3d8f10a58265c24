// The chat listener (SERVICES includes `chat`): the REST API, the Bot API on the same port, the settings console and
// the realtime gateway at /ws. The gateway attaches to the server before the port opens.
import { buildChatListener } from '../chat/listener.js';
import { SendLimit } from '../chat/auth/send-limit.js';
import { BotSendLimit } from '../chat/bots/api/send-limit.js';
import { PresenceService } from '../chat/presence/service.js';
import { TypingService } from '../chat/presence/typing.js';
import { startRealtimeGateway } from '../chat/realtime/gateway.js';
import { realtimeOptions } from '../chat/realtime/options.js';
import { createAuthenticator } from '../core/auth/authenticate.js';
import { registerConsole } from '../platform/http/console.js';
import { watchGateway } from './metrics.js';
import type { Platform } from './platform.js';
import type { Wiring } from './wiring.js';

/** Starts the chat listener and its gateway; returns the listener's address. */
export async function startChat(w: Wiring, platform: Platform): Promise<string> {
  const { config, log, clock, shutdown, accounts, verifyKeys } = w;
  const { orm, sql, reads, queues, redis, subscriber, media, infra } = w.base;
  shutdown.add(await w.botWaiters.listen(subscriber));
  const presence = {
    typing: new TypingService(sql, redis, config.realtimeTypingIntervalMs),
    presence: new PresenceService(sql, redis, (err: unknown) => log.error({ err }, 'realtime: presence announcement failed')),
  };
  // Stopped after the listener (stops run in reverse): the sessions it closes are not announced any more.
  shutdown.add(async () => presence.presence.close());
  const chat = await buildChatListener({
    deps: { orm, sql, reads, clock, queues, verifyKeys, accounts, config, gateKeys: w.gateKeys },
    log,
    bodyLimit: config.bodyLimitBytes,
    audience: config.jwtAudience,
    maxTokenLifetimeSeconds: config.maxTokenLifetimeSeconds,
    sendLimit: new SendLimit(redis, config.sendRateLimitPerMinute, clock),
    readiness: w.readiness,
    media,
    bots: {
      waiters: w.botWaiters,
      deliveries: w.botDeliveries,
      webhookPolicy: w.webhookPolicy,
      sendLimit: new BotSendLimit(redis, config.botSendRatePerSecond, clock),
      longPollMaxSeconds: config.botLongPollMaxSeconds,
    },
    presence,
    timeouts: config,
  });
  const portOf = (url: string | undefined, fallback: number) => (url ? Number(new URL(url).port) : fallback);
  await registerConsole(chat, () => ({
    partner: config.consolePartnerUrl ? { url: config.consolePartnerUrl } : { port: portOf(platform.partnerUrl, config.partnerPort) },
    workspace: config.consoleWorkspaceUrl
      ? { url: config.consoleWorkspaceUrl }
      : { port: portOf(platform.workspaceUrl, config.workspacePort) },
  }));
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
  shutdown.onDrain(() => realtime.stop());
  // Only now does the port open: an upgrade that reached the server before the gateway listened for upgrades was
  // answered by the REST router with 404 (a cluster worker takes connections as soon as it listens).
  const address = await chat.listen({ host: config.host, port: config.chatPort });
  shutdown.add(() => chat.close());
  const unwatchRealtime = watchGateway(realtime);
  shutdown.add(async () => unwatchRealtime());
  platform.realtime = realtime;
  platform.chat = chat;
  platform.chatUrl = address;
  platform.consoleUrl = `${address}/console/`;
  log.info({ address }, 'chat listener ready');
  return address;
}
