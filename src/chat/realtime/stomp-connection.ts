// The connection side of a STOMP session: its WebSocket, the frames it writes (a client too slow to read them is cut
// off), heart-beats, timers, the notices and ERROR frame that end it, and the close. StompSession adds the protocol.
import type { WebSocket } from 'ws';
import { stompFramesSent, stompSlowConsumersDropped } from '../../platform/metrics/realtime.js';
import { Heartbeats } from './heartbeats.js';
import type { RealtimeOptions } from './options.js';
import type { SessionNotice } from './session-contract.js';
import { errorFrame, noticeMessage, textMessage } from './session-frames.js';
import { SESSION, type Subscription } from './subscriptions.js';

export type SessionState = 'awaiting-connect' | 'authenticating' | 'connected' | 'closing';

export const closeCodes = { normal: 1000, policy: 1008, tooBig: 1009, restart: 1012 } as const;

let sessionCounter = 0;

export abstract class StompConnection {
  readonly id = `s${process.pid.toString(36)}-${(++sessionCounter).toString(36)}`;
  protected state: SessionState = 'awaiting-connect';
  protected readonly subscriptions = new Map<string, Subscription>();
  protected readonly beats = new Heartbeats();
  private messageCounter = 0;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    protected readonly ws: WebSocket,
    protected readonly options: RealtimeOptions,
  ) {}

  /** The session has ended: the gateway forgets it. */
  protected abstract released(): void;

  get isOpen(): boolean {
    return this.state !== 'closing';
  }

  protected nextMessageId(): string {
    return `${this.id}-${++this.messageCounter}`;
  }

  /** A notice on /user/queue/session when subscribed; true when one was sent. */
  protected notice(notice: SessionNotice): boolean {
    let sent = false;
    for (const sub of this.subscriptions.values()) {
      if (sub.destination !== SESSION) continue;
      this.send(noticeMessage(sub.id, this.nextMessageId(), SESSION, ['notice', notice.type], JSON.stringify(notice)));
      sent = true;
    }
    return sent;
  }

  /** The account became DEACTIVATED or BANNED: the soft-kick notice, then the ERROR frame and the close. */
  kick(status: string): void {
    if (this.state === 'closing') return;
    const reason = status === 'BANNED' ? 'account_banned' : 'account_deactivated';
    const message = `the account is ${status.toLowerCase()}; this session has ended and reconnecting is refused`;
    this.notice({ type: 'soft-kick', reason, status, message });
    this.fail(reason, message);
  }

  /** The node is shutting down: a reconnect notice (a MESSAGE when subscribed, else an ERROR frame), then the close. */
  restart(): void {
    if (this.state === 'closing') return;
    const message = 'server restarting, reconnect';
    if (this.state === 'connected' && this.notice({ type: 'restarting', reason: 'server_restarting', message })) {
      return this.close(closeCodes.restart, 'server restarting');
    }
    this.fail('server_restarting', message, undefined, closeCodes.restart);
  }

  /** The ERROR frame (STOMP: the server closes the connection right after it). */
  fail(code: string, message: string, receipt?: string, closeCode: number = closeCodes.policy): void {
    if (this.state === 'closing') return;
    this.send(errorFrame(code, message, receipt));
    this.close(closeCode, code);
  }

  protected close(code: number, reason: string): void {
    if (this.state === 'closing') return;
    this.state = 'closing';
    this.stopTimers();
    this.released();
    try {
      this.ws.close(code, reason.slice(0, 100));
    } catch {
      this.ws.terminate();
    }
    // A client that does not answer the close handshake is cut off.
    const cut = setTimeout(() => this.ws.terminate(), 2_000);
    cut.unref();
  }

  protected closed(): void {
    this.state = 'closing';
    this.stopTimers();
    this.released();
  }

  /** Cuts the connection without a frame (the node is going away after its notices). */
  terminate(): void {
    this.closed();
    this.ws.terminate();
  }

  protected send(text: string | Buffer): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > this.options.maxBufferedBytes && this.state !== 'closing') {
      // A client that does not read: end the session rather than queue without bound; it resumes from its seq.
      this.state = 'closing';
      this.stopTimers();
      this.released();
      this.ws.terminate();
      stompSlowConsumersDropped.inc();
      return;
    }
    this.beats.lastSentAt = Date.now();
    this.ws.send(text, textMessage);
    stompFramesSent.inc();
  }

  /** The gateway's sweep (see Heartbeats). */
  tick(now: number, slackMs: number): void {
    if (this.state !== 'connected') return;
    this.beats.tick(now, slackMs, {
      send: (bytes) => this.send(bytes),
      fail: (code, message) => this.fail(code, message),
      terminate: () => this.terminate(),
      ping: () => this.ws.ping(),
    });
  }

  protected later(ms: number, fn: () => void): void {
    // setTimeout holds at most 2^31-1 ms; a longer wait is re-armed.
    const max = 2_147_483_647;
    const t = setTimeout(() => (ms > max ? this.later(ms - max, fn) : fn()), Math.max(0, Math.min(ms, max)));
    t.unref();
    this.timers.push(t);
  }

  private stopTimers(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.length = 0;
  }
}
