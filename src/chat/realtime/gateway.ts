// The realtime gateway of one node: STOMP over WebSocket at /ws on the chat listener's HTTP server. Every node
// hears every delivery announcement and every account invalidation through Redis and acts for the sessions it
// holds, so nodes share nothing but PostgreSQL and Redis.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { listenForAnnouncements } from './announcements.js';
import type { GatewayDeps } from './gateway-deps.js';
import { StompSession } from './session.js';
import { sessionHost } from './session-host.js';
import { sessionIndex } from './session-index.js';

export type { GatewayDeps } from './gateway-deps.js';

export const realtimePath = '/ws';

export interface RealtimeGateway {
  /** Open sessions on this node. */
  readonly sessions: number;
  /** Subscriptions held by those sessions. */
  readonly subscriptions: number;
  /** Sends every session the reconnect notice and closes it; stops taking new ones. */
  stop(): Promise<void>;
}

export async function startRealtimeGateway(deps: GatewayDeps): Promise<RealtimeGateway> {
  const { options } = deps;
  const index = sessionIndex();
  const { all } = index;
  let stopping = false;
  const host = sessionHost(deps, index);
  const { subscriber, sweep } = await listenForAnnouncements(deps, index, host);
  const sweeper = setInterval(() => {
    sweep().catch((err: unknown) => host.onError(err, 'sweep'));
  }, options.sweepMs);
  sweeper.unref();
  // One timer for the heart-beats of every session; sendEvery and expectEvery are at least heartbeatMs.
  const beatSlackMs = Math.min(2_000, Math.max(20, Math.floor(options.heartbeatMs / 2)));
  // The check runs after this turn's reads (setImmediate comes after the poll phase): a node that fell behind reads
  // what its clients sent meanwhile before it judges them silent.
  const beats = setInterval(() => {
    setImmediate(() => {
      const now = Date.now();
      for (const s of all) s.tick(now, beatSlackMs);
    });
  }, beatSlackMs / 2);
  beats.unref();

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
      clearInterval(beats);
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
