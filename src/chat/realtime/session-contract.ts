// What a session needs from its gateway (the gateway's host serves every session of the node), and the notices it
// sends its client about itself. The host is generic in the session so that this contract imports no session.
import type { Caller } from '../base/context.js';
import type { LogPage } from './log.js';
import type { RealtimeOptions } from './options.js';

/** What a session needs from its gateway. */
export interface SessionHost<Session> {
  readonly options: RealtimeOptions;
  /** Verifies a bearer token as the REST listener does; throws its AppError. Returns the token's exp (epoch s). */
  authenticate(token: string): Promise<{ caller: Caller; exp: number }>;
  /** Milliseconds until the epoch-second `exp` on the service's clock. */
  msUntil(exp: number): number;
  /** Adds the session to its account's; returns false when the account has too many open sessions. */
  register(session: Session): boolean;
  unregister(session: Session): void;
  /** The account's status read now, past every cache; null when the account is gone. */
  statusOf(accountId: string): Promise<string | null>;
  readLog(accountId: string, after: number, limit: number): Promise<LogPage>;
  lastSeq(accountId: string): Promise<number>;
  /** A typing notice of the account in the room; throws the REST operation's AppError (404, 429). */
  typing(accountId: string, roomId: string): Promise<void>;
  /** The session is alive (connected, or a heart-beat came): its presence entry lasts ttlMs from now. */
  presenceAlive(session: Session, ttlMs: number): void;
  onError(err: unknown, what: string): void;
}

/** The notice bodies of /user/queue/session. */
export interface SessionNotice {
  type: 'soft-kick' | 'restarting';
  reason: string;
  message: string;
  status?: string;
}
