// The STOMP gateway's limits and timers (docs/realtime.md).
import { int, type Env } from './env.js';

/** The STOMP gateway's limits and timers (docs/realtime.md). */
export function realtimeSettings(env: Env) {
  return {
    realtimeRetentionHours: int(env, 'REALTIME_RETENTION_HOURS', 24, 24, 720),
    realtimeMaxFrameBytes: int(env, 'REALTIME_MAX_FRAME_BYTES', 65_536, 1_024, 16_777_216),
    realtimeMaxSubscriptions: int(env, 'REALTIME_MAX_SUBSCRIPTIONS', 8, 1, 100),
    realtimeMaxFramesPerSecond: int(env, 'REALTIME_MAX_FRAMES_PER_SECOND', 50, 1, 10_000),
    realtimeMaxSessionsPerAccount: int(env, 'REALTIME_MAX_SESSIONS_PER_ACCOUNT', 20, 1, 1_000),
    realtimeHeartbeatMs: int(env, 'REALTIME_HEARTBEAT_MS', 10_000, 100, 3_600_000),
    realtimeConnectTimeoutMs: int(env, 'REALTIME_CONNECT_TIMEOUT_MS', 10_000, 100, 600_000),
    realtimeMaxBufferedBytes: int(env, 'REALTIME_MAX_BUFFERED_BYTES', 4_194_304, 65_536, 1_073_741_824),
    realtimeSweepMs: int(env, 'REALTIME_SWEEP_MS', 10_000, 100, 3_600_000),
    realtimeTypingIntervalMs: int(env, 'REALTIME_TYPING_INTERVAL_MS', 2_000, 500, 60_000),
  };
}
