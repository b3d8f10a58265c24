// The realtime gateway of one node: STOMP over WebSocket at /ws on the chat listener's HTTP server. Every node
// hears every delivery announcement and every account invalidation through Redis and acts for the sessions it
// holds, so nodes share nothing but PostgreSQL and Redis.
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { decodeJwt } from 'jose';
import type { FastifyRequest } from 'fastify';
import type { Caller } from '../context.js';
import { accountInvalidationChannel } from '../../core/auth/account-cache.js';
import type { Clock } from '../../platform/clock.js';
import type { SqlPool } from '../../platform/db/sql.js';
import type { Logger } from '../../platform/logger.js';
import { confirmInvalidation, invalidatedKey } from '../../platform/invalidation.js';
import { connectRedis, type Redis } from '../../platform/redis.js';
import { inConsumerSpan } from '../../platform/tracing/consumer.js';
import { ephemeralBody, ephemeralChannel, parseEphemeral } from '../presence/ephemeral.js';
import type { PresenceService } from '../presence/service.js';
import type { TypingService } from '../presence/typing.js';
import { deliveryChannel, parseDelivery } from './delivery.js';
import { lastSeqOf, lastSeqsOf, readUserEvents, type Delivery } from './log.js';
import type { RealtimeOptions } from './options.js';
import { StompSession, type SessionHost } from './session.js';

export const realtimePath = '/ws';

export interface GatewayDeps {
  server: Server;
  sql: SqlPool;
  redisUrl: string;
  /** Publishes the confirmations of account invalidations this node hears. */
  publisher: Redis;
  clock: Clock;
  log: Logger;
  options: RealtimeOptions;
  /** Typing notices sent over STOMP, as the REST twin sends them. */
  typing: TypingService;
  /** Presence entries of this node's sessions, kept in Redis. */
  presence: PresenceService;
  /** The chat listener's bearer authentication. */
  authenticate: (request: FastifyRequest) => Promise<Caller>;
}

export interface RealtimeGateway {
  /** Open sessions on this node. */
  readonly sessions: number;
  /** Subscriptions held by those sessions. */
  readonly subscriptions: number;
  /** Sends every session the reconnect notice and closes it; stops taking new ones. */
  stop(): Promise<void>;
}

export async function startRealtimeGateway(deps: GatewayDeps): Promise<RealtimeGateway> {
  const { options, log } = deps;
  const byAccount = new Map<string, Set<StompSession>>();
  const all = new Set<StompSession>();
  let stopping = false;

  const host: SessionHost = {
    options,
    async authenticate(token) {
      const caller = await deps.authenticate({ headers: { authorization: `Bearer ${token}` } } as FastifyRequest);
      return { caller, exp: decodeJwt(token).exp! };
    },
    msUntil: (exp) => exp * 1000 - deps.clock.now().getTime(),
    register(session) {
      const id = session.accountId!;
      let set = byAccount.get(id);
      if (!set) byAccount.set(id, (set = new Set()));
      if (set.size >= options.maxSessionsPerAccount) return false;
      set.add(session);
      return true;
    },
    unregister(session) {
      all.delete(session);
      const id = session.accountId;
      if (!id) return;
      if (session.presenceOpen) {
        session.presenceOpen = false;
        deps.presence.sessionClosed(id, session.id).catch((err: unknown) => log.error({ err }, 'realtime: presence close failed'));
      }
      const set = byAccount.get(id);
      set?.delete(session);
      if (set?.size === 0) byAccount.delete(id);
    },
    async statusOf(accountId) {
      const { rows } = await deps.sql.query<{ status: string }>('select status from accounts where id = $1', [accountId]);
      return rows[0]?.status ?? null;
    },
    readLog: (accountId, after, limit) => readUserEvents(deps.sql, accountId, after, limit),
    lastSeq: (accountId) => lastSeqOf(deps.sql, accountId),
    typing: async (accountId, roomId) => {
      await deps.typing.notify(accountId, roomId);
    },
    presenceAlive(session, ttlMs) {
      if (!session.accountId) return;
      deps.presence.sessionAlive(session.accountId, session.id, ttlMs).catch((err: unknown) => log.error({ err }, 'realtime: presence refresh failed'));
    },
    onError: (err, what) => log.error({ err }, `realtime: ${what} failed`),
  };

  const deliver = (d: Delivery) => {
    let tail: string | undefined;
    for (const [accountId, seq] of d.to) {
      const sessions = byAccount.get(accountId);
      if (!sessions) continue;
      // The body differs per recipient only in its seq; the rest is serialised once.
      tail ??= `,"eventId":${JSON.stringify(d.id)},"topic":${JSON.stringify(d.topic)},"createdAt":${JSON.stringify(d.createdAt)},"payload":${JSON.stringify(d.payload)}}`;
      const rest = tail;
      for (const s of sessions) s.deliver(seq, () => `{"seq":${seq}${rest}`, d.topic, d.id);
    }
  };

  /** An account changed on some node: its sessions here end when it may no longer use the service. */
  const recheck = async (accountId: string) => {
    const sessions = byAccount.get(accountId);
    if (!sessions || sessions.size === 0) return;
    const status = await host.statusOf(accountId);
    if (status === 'ACTIVE') return;
    for (const s of [...(byAccount.get(accountId) ?? [])]) s.kick(status ?? 'DEACTIVATED');
  };

  /** Live subscriptions behind the log (an announcement lost in Redis) read it. */
  const sweep = async () => {
    const ids = [...byAccount.keys()].filter((id) => [...byAccount.get(id)!].some((s) => s.hasLiveEvents));
    for (let i = 0; i < ids.length; i += 1000) {
      const seqs = await lastSeqsOf(deps.sql, ids.slice(i, i + 1000));
      for (const [id, seq] of seqs) for (const s of byAccount.get(id) ?? []) s.behind(seq);
    }
  };

  const subscriber: Redis = connectRedis(deps.redisUrl, 'realtime', { blocking: true });
  subscriber.on('error', () => undefined);
  subscriber.on('message', (channel: string, message: string) => {
    if (channel === deliveryChannel) {
      const d = parseDelivery(message);
      if (d) inConsumerSpan('realtime.deliver', [d.traceContext], { 'messaging.destination.name': d.topic, 'realtime.recipients': d.to.length }, () => deliver(d));
    } else if (channel === ephemeralChannel) {
      const n = parseEphemeral(message);
      if (!n) return;
      let body: string | undefined;
      for (const accountId of n.to) for (const s of byAccount.get(accountId) ?? []) s.deliverEphemeral(n.topic, (body ??= ephemeralBody(n)));
    } else if (channel === accountInvalidationChannel) {
      confirmInvalidation(deps.publisher, channel, message);
      recheck(invalidatedKey(message)).catch((err: unknown) => host.onError(err, 'account recheck'));
    }
  });
  let subscribed = false;
  // After a reconnect of the subscriber, announcements and invalidations may have been missed.
  subscriber.on('ready', () => {
    if (!subscribed) return;
    sweep().catch((err: unknown) => host.onError(err, 'sweep'));
    Promise.all([...byAccount.keys()].map(recheck)).catch((err: unknown) => host.onError(err, 'account recheck'));
  });
  await subscriber.subscribe(deliveryChannel, ephemeralChannel, accountInvalidationChannel);
  subscribed = true;
  const sweeper = setInterval(() => {
    sweep().catch((err: unknown) => host.onError(err, 'sweep'));
  }, options.sweepMs);
  sweeper.unref();

  const wss = new WebSocketServer({
    noServer: true,
    // Frames between the frame limit and this get the ERROR frame; beyond it the WebSocket layer closes with 1009.
    maxPayload: options.maxFrameBytes * 4,
    perMessageDeflate: false,
  });
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== realtimePath || stopping) {
      const status = stopping ? '503 Service Unavailable' : '404 Not Found';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      if (stopping) return ws.terminate();
      all.add(new StompSession(ws, host));
    });
  };
  deps.server.on('upgrade', onUpgrade);

  return {
    get sessions() {
      return all.size;
    },
    get subscriptions() {
      let n = 0;
      for (const s of all) n += s.subscriptionCount;
      return n;
    },
    async stop() {
      stopping = true;
      clearInterval(sweeper);
      deps.server.off('upgrade', onUpgrade);
      for (const s of [...all]) s.restart();
      // Clients answer the close handshake; whoever has not within a second is cut off.
      const deadline = Date.now() + 1_000;
      while (wss.clients.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      for (const client of wss.clients) client.terminate();
      wss.close();
      subscriber.disconnect();
    },
  };
}
