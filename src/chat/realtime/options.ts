// Settings of the realtime gateway (README, docs/realtime.md "Limits").
import type { Config } from '../../platform/config/index.js';

export interface RealtimeOptions {
  /** Bytes of one STOMP frame (command, headers, body); larger ones get an ERROR frame. */
  maxFrameBytes: number;
  maxHeaders: number;
  /** Subscriptions one connection may hold at a time. */
  maxSubscriptions: number;
  /** Frames (or WebSocket messages, whichever is more) a connection may send per second. */
  maxFramesPerSecond: number;
  /** Open sessions of one account on one node. */
  maxSessionsPerAccount: number;
  /** The heart-beat interval the server offers and asks for (CONNECTED heart-beat sx,sy). */
  heartbeatMs: number;
  /** Time from the WebSocket upgrade to a valid CONNECT. */
  connectTimeoutMs: number;
  /** Bytes queued to a slow client before its session is ended (it resumes with resume-after). */
  maxBufferedBytes: number;
  /** How often each node compares its live subscriptions with the log, for announcements Redis lost. */
  sweepMs: number;
  /** Events read from the log per catch-up query. */
  catchUpPage: number;
}

export function realtimeOptions(config: Config): RealtimeOptions {
  return {
    maxFrameBytes: config.realtimeMaxFrameBytes,
    maxHeaders: 32,
    maxSubscriptions: config.realtimeMaxSubscriptions,
    maxFramesPerSecond: config.realtimeMaxFramesPerSecond,
    maxSessionsPerAccount: config.realtimeMaxSessionsPerAccount,
    heartbeatMs: config.realtimeHeartbeatMs,
    connectTimeoutMs: config.realtimeConnectTimeoutMs,
    maxBufferedBytes: config.realtimeMaxBufferedBytes,
    sweepMs: config.realtimeSweepMs,
    catchUpPage: 500,
  };
}
