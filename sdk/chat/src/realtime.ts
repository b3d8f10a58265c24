// connectRealtime: the chat service's STOMP stream (docs/realtime.md) on @stomp/stompjs, with automatic resume:
// the helper remembers the last seq it delivered and subscribes with resume-after on every reconnect, so the
// handler sees every event once, in order, across disconnects and nodes.
import { Client, type IFrame, type IMessage } from '@stomp/stompjs';
import type { TokenProvider } from './client.js';
import type { webhooks } from './schema.js';

export const EVENTS_DESTINATION = '/user/queue/events';
export const SESSION_DESTINATION = '/user/queue/session';

/** The topics of the caller's stream, as the chat document declares them (its `webhooks` map, docs/events.md). */
export type RealtimeTopic = keyof webhooks;

/** One event of a topic, as declared: seq, eventId, topic, createdAt and the topic's payload. */
export type RealtimeEventOf<T extends RealtimeTopic> = webhooks[T]['post']['requestBody']['content']['application/json'];

/** The payload of one topic's event. */
export type RealtimePayloadOf<T extends RealtimeTopic> = RealtimeEventOf<T>['payload'];

/** One event of the caller's stream (the same object GET /api/v1/me/events lists): a union narrowed by `topic`. */
export type RealtimeEvent = { [T in RealtimeTopic]: RealtimeEventOf<T> }[RealtimeTopic];

/** A notice of /user/queue/session: the account was deactivated or banned, or the node is restarting. */
export interface SessionNotice {
  type: 'soft-kick' | 'restarting';
  reason: string;
  message: string;
  status?: string;
}

/** An ERROR frame from the server (its `code` header is stable; docs/realtime.md lists them). */
export interface RealtimeError {
  code: string;
  message: string;
}

/** What stompjs needs of a WebSocket; in Node pass `() => new WebSocket(url)` from the `ws` package. */
export type WebSocketFactory = () => unknown;

export interface RealtimeOptions {
  /** ws(s)://host/ws, or the chat base URL http(s)://host, to which /ws is added. */
  url: string;
  /** A static bearer token, or a provider asked before every (re)connect. */
  token?: string;
  getToken?: TokenProvider;
  onEvent: (event: RealtimeEvent) => void;
  onNotice?: (notice: SessionNotice) => void;
  onError?: (error: RealtimeError) => void;
  /**
   * The events after the remembered seq are past the server's retention window: refetch the state you show.
   * The stream then continues from the newest event.
   */
  onResync?: () => void;
  onConnect?: (info: { lastSeq: number; resumed: boolean }) => void;
  /** The helper stopped for good (soft-kick, refused account, a static token refused, or close()). */
  onClosed?: (reason: string) => void;
  /** Continue after this seq on the first connection (one saved from an earlier run). */
  resumeAfter?: number;
  webSocketFactory?: WebSocketFactory;
  /** Delay before reconnecting; default 1000 ms. */
  reconnectDelayMs?: number;
  /** Heart-beat interval asked of and offered to the server; default 10000 ms (the server may raise it). */
  heartbeatMs?: number;
}

export interface RealtimeConnection {
  /** The seq of the last event handed to onEvent (or the stream position of the last connection). */
  readonly lastSeq: number | undefined;
  readonly connected: boolean;
  /** The underlying stompjs client. */
  readonly client: Client;
  close(): Promise<void>;
}

/** Codes after which reconnecting cannot succeed. */
const accountRefusals = new Set(['account_deactivated', 'account_banned', 'account_unknown']);
/** Codes that a fresh token from a provider may cure; with a static token they end the helper. */
const tokenRefusals = new Set([
  'unauthenticated',
  'token_malformed',
  'token_invalid',
  'token_expired',
  'unknown_signing_key',
  'token_audience_mismatch',
  'token_lifetime_exceeded',
]);

function brokerUrl(url: string): string {
  const u = new URL(url);
  if (u.protocol === 'http:') u.protocol = 'ws:';
  else if (u.protocol === 'https:') u.protocol = 'wss:';
  if (u.pathname === '/' || u.pathname === '') u.pathname = '/ws';
  return u.toString();
}

export function connectRealtime(options: RealtimeOptions): RealtimeConnection {
  if (!options.token && !options.getToken) throw new Error('connectRealtime needs token or getToken');
  const getToken: TokenProvider = options.getToken ?? (() => options.token!);
  const url = brokerUrl(options.url);
  let lastSeq = options.resumeAfter;
  let stopped = false;
  const heartbeat = options.heartbeatMs ?? 10_000;

  const client = new Client({
    ...(options.webSocketFactory ? { webSocketFactory: options.webSocketFactory as never } : { brokerURL: url }),
    reconnectDelay: options.reconnectDelayMs ?? 1_000,
    heartbeatIncoming: heartbeat,
    heartbeatOutgoing: heartbeat,
    debug: () => undefined,
  });
  const stop = (reason: string) => {
    if (stopped) return;
    stopped = true;
    void client.deactivate();
    options.onClosed?.(reason);
  };

  client.beforeConnect = async () => {
    client.connectHeaders = { Authorization: `Bearer ${await getToken()}` };
  };
  client.onConnect = (frame: IFrame) => {
    const resumed = lastSeq !== undefined;
    const serverSeq = Number(frame.headers['last-seq'] ?? 0);
    // Without a remembered seq the stream starts at the newest event as of this connection.
    lastSeq ??= serverSeq;
    client.subscribe(SESSION_DESTINATION, (message: IMessage) => {
      const notice = JSON.parse(message.body) as SessionNotice;
      options.onNotice?.(notice);
      if (notice.type === 'soft-kick') stop(notice.reason);
    });
    client.subscribe(
      EVENTS_DESTINATION,
      (message: IMessage) => {
        const event = JSON.parse(message.body) as RealtimeEvent;
        if (lastSeq !== undefined && event.seq <= lastSeq) return;
        lastSeq = event.seq;
        options.onEvent(event);
      },
      { 'resume-after': String(lastSeq) },
    );
    options.onConnect?.({ lastSeq, resumed });
  };
  client.onStompError = (frame: IFrame) => {
    const error: RealtimeError = { code: frame.headers.code ?? 'error', message: frame.headers.message ?? frame.body };
    if (error.code === 'resync_required') {
      lastSeq = undefined;
      options.onResync?.();
    }
    options.onError?.(error);
    if (accountRefusals.has(error.code)) stop(error.code);
    else if (tokenRefusals.has(error.code) && !options.getToken) stop(error.code);
  };
  client.activate();

  return {
    get lastSeq() {
      return lastSeq;
    },
    get connected() {
      return client.connected;
    },
    client,
    async close() {
      const first = !stopped;
      stopped = true;
      await client.deactivate();
      if (first) options.onClosed?.('closed');
    },
  };
}
