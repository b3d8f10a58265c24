// One STOMP 1.2 session over one WebSocket: CONNECT with the bearer token, heart-beats as negotiated, the user
// destinations, typing notices, receipts, and an ERROR frame followed by the close for anything refused. The
// connection side (writes, heart-beats, timers, the close) is StompConnection; the events feed is EventFeed.
import type { WebSocket } from 'ws';
import { AppError } from '../../platform/http/app-error.js';
import { stompFramesReceived } from '../../platform/metrics/realtime.js';
import type { Caller } from '../base/context.js';
import { presenceMinRefreshMs, presenceTtlIntervals } from '../presence/limits.js';
import { EventFeed, type FeedSession } from './event-feed.js';
import { FrameRate } from './frame-rate.js';
import { FrameParser, serializeFrame, StompProtocolError, type EventFrameParts, type Frame } from './frame.js';
import type { SessionHost as GatewayHost } from './session-contract.js';
import { connectRequest, noticeMessage, refusedStatus, requiredHeader, toBuffer } from './session-frames.js';
import { closeCodes, StompConnection } from './stomp-connection.js';
import { EPHEMERAL, EVENTS, subscriptionOf, typingRoomOf } from './subscriptions.js';

export type SessionHost = GatewayHost<StompSession>;

export class StompSession extends StompConnection {
  accountId: string | undefined;
  private readonly parser: FrameParser;
  private chain: Promise<void> = Promise.resolve();
  private readonly rate = new FrameRate();
  private readonly feed: EventFeed;
  /** True from CONNECTED until the gateway has removed the session's presence entry. */
  presenceOpen = false;
  private presenceRefreshMs = presenceMinRefreshMs;
  private presenceRefreshedAt = 0;

  constructor(
    ws: WebSocket,
    private readonly host: SessionHost,
  ) {
    super(ws, host.options);
    this.parser = new FrameParser({ maxFrameBytes: host.options.maxFrameBytes, maxHeaders: host.options.maxHeaders });
    this.feed = new EventFeed(this.feedSession(), host);
    ws.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => this.onMessage(toBuffer(data)));
    ws.on('pong', () => {
      this.beats.lastReceivedAt = Date.now();
      this.alive();
    });
    ws.on('close', () => this.closed());
    ws.on('error', () => this.closed());
    this.later(host.options.connectTimeoutMs, () => {
      if (this.state === 'awaiting-connect' || this.state === 'authenticating')
        this.fail('connect_timeout', 'no valid CONNECT frame in time');
    });
  }

  /** Subscriptions held now (read by the metrics scrape). */
  get subscriptionCount(): number {
    return this.subscriptions.size;
  }

  private onMessage(data: Buffer): void {
    if (this.state === 'closing') return;
    this.beats.lastReceivedAt = Date.now();
    this.alive();
    let parsed: { frames: Frame[]; heartbeats: number };
    try {
      parsed = this.parser.push(data);
    } catch (err) {
      if (err instanceof StompProtocolError)
        return this.fail(err.code, err.message, undefined, err.code === 'frame_too_large' ? closeCodes.tooBig : closeCodes.policy);
      throw err;
    }
    const count = this.rate.add(parsed.frames.length);
    if (parsed.frames.length > 0) stompFramesReceived.inc(parsed.frames.length);
    if (count > this.host.options.maxFramesPerSecond) {
      return this.fail('rate_limited', `more than ${this.host.options.maxFramesPerSecond} frames per second`);
    }
    for (const frame of parsed.frames) {
      this.chain = this.chain
        .then(() => (this.state === 'closing' ? undefined : this.handle(frame)))
        .catch((err: unknown) => {
          if (err instanceof StompProtocolError) return this.fail(err.code, err.message, frame.headers.get('receipt'));
          this.host.onError(err, `STOMP ${frame.command}`);
          this.fail('internal_error', 'the frame could not be processed', frame.headers.get('receipt'));
        });
    }
  }

  private async handle(frame: Frame): Promise<void> {
    if (this.state === 'awaiting-connect') {
      if (frame.command !== 'CONNECT' && frame.command !== 'STOMP')
        throw new StompProtocolError('not_connected', 'the first frame must be CONNECT');
      return this.connect(frame);
    }
    switch (frame.command) {
      case 'SUBSCRIBE':
        this.subscribe(frame);
        break;
      case 'UNSUBSCRIBE': {
        const id = requiredHeader(frame, 'id');
        this.subscriptions.delete(id);
        break;
      }
      case 'DISCONNECT':
        this.receipt(frame);
        return this.close(closeCodes.normal, 'disconnected');
      case 'CONNECT':
      case 'STOMP':
        throw new StompProtocolError('already_connected', 'the session is already connected');
      case 'SEND':
        await this.sendTyping(frame);
        break;
      case 'ACK':
      case 'NACK':
        throw new StompProtocolError('ack_not_supported', 'subscriptions are ack:auto; ACK and NACK are not used');
      default:
        throw new StompProtocolError('transactions_not_supported', `${frame.command} is not supported`);
    }
    this.receipt(frame);
  }

  private async connect(frame: Frame): Promise<void> {
    this.state = 'authenticating';
    const { cx, cy, token } = connectRequest(frame);
    let caller: Caller;
    let exp: number;
    try {
      ({ caller, exp } = await this.host.authenticate(token));
    } catch (err) {
      if (err instanceof AppError) throw new StompProtocolError(err.code, err.message);
      throw err;
    }
    if (this.state !== 'authenticating') return;
    // REST tolerates a little clock skew past exp; a session would end at once, so it does not start.
    if (this.host.msUntil(exp) <= 0) throw new StompProtocolError('token_expired', 'The bearer token has expired.');
    this.accountId = caller.accountId;
    if (!this.host.register(this)) {
      this.accountId = undefined;
      throw new StompProtocolError('too_many_sessions', `an account may hold ${this.host.options.maxSessionsPerAccount} sessions per node`);
    }
    // A status change that landed between authentication and registration found no session to end: look again.
    const status = await this.host.statusOf(caller.accountId);
    if (status !== 'ACTIVE') throw refusedStatus(status);
    const lastSeq = await this.host.lastSeq(caller.accountId);
    if (this.state !== 'authenticating') return;
    this.state = 'connected';

    const { heartbeatMs } = this.host.options;
    const sendEvery = cy === 0 ? 0 : Math.max(heartbeatMs, cy);
    const expectEvery = cx === 0 ? 0 : Math.max(heartbeatMs, cx);
    this.send(
      serializeFrame('CONNECTED', [
        ['version', '1.2'],
        ['heart-beat', `${heartbeatMs},${heartbeatMs}`],
        ['session', this.id],
        ['server', 'chat-platform'],
        ['user-name', caller.accountId],
        ['last-seq', String(lastSeq)],
      ]),
    );
    this.beats.start(sendEvery, expectEvery, heartbeatMs);
    // The entry outlives a few heart-beat intervals (or pings, for clients without heart-beats) unrefreshed.
    this.presenceRefreshMs = Math.max(presenceMinRefreshMs, expectEvery || Math.max(30_000, heartbeatMs));
    this.presenceOpen = true;
    this.presenceRefreshedAt = Date.now();
    this.host.presenceAlive(this, this.presenceRefreshMs * presenceTtlIntervals);
    this.later(this.host.msUntil(exp), () => this.fail('token_expired', 'the bearer token expired; reconnect with a fresh token'));
  }

  private subscribe(frame: Frame): void {
    const sub = subscriptionOf(frame, this.subscriptions, this.host.options.maxSubscriptions);
    this.subscriptions.set(sub.id, sub);
    if (sub.destination === EVENTS) void this.feed.readLog(sub);
  }

  /**
   * SEND to /app/rooms/{roomId}/typing: the REST twin's rules. A non-member gets the ERROR frame; a notice within
   * the rate window is dropped without an error (the receipt still comes), since a client repeating it while the
   * user types is behaving as meant.
   */
  private async sendTyping(frame: Frame): Promise<void> {
    const roomId = typingRoomOf(frame);
    try {
      await this.host.typing(this.accountId!, roomId);
    } catch (err) {
      if (err instanceof AppError && err.status === 429) return;
      if (err instanceof AppError) throw new StompProtocolError(err.code, err.message);
      throw err;
    }
  }

  /** Refreshes the presence entry at most once per refresh interval, on any sign of life. */
  private alive(): void {
    if (!this.presenceOpen || this.state !== 'connected') return;
    const now = Date.now();
    if (now - this.presenceRefreshedAt < this.presenceRefreshMs) return;
    this.presenceRefreshedAt = now;
    this.host.presenceAlive(this, this.presenceRefreshMs * presenceTtlIntervals);
  }

  private receipt(frame: Frame): void {
    const receipt = frame.headers.get('receipt');
    if (receipt !== undefined) this.send(serializeFrame('RECEIPT', [['receipt-id', receipt]]));
  }

  /** An event announced for this session's account (see EventFeed). */
  deliver(seq: number, event: EventFrameParts): void {
    this.feed.deliver(seq, event);
  }

  /** A typing or presence notice for this session's account: straight out to every /user/queue/ephemeral subscription. */
  deliverEphemeral(topic: string, body: string): void {
    if (this.state !== 'connected') return;
    for (const sub of this.subscriptions.values()) {
      if (sub.destination !== EPHEMERAL) continue;
      this.send(noticeMessage(sub.id, this.nextMessageId(), EPHEMERAL, ['topic', topic], body));
    }
  }

  /** Sessions whose newest seq in the log is ahead of what a live subscription sent: read the log. */
  behind(lastSeq: number): void {
    this.feed.behind(lastSeq);
  }

  get hasLiveEvents(): boolean {
    return this.feed.hasLiveEvents;
  }

  protected released(): void {
    this.host.unregister(this);
  }

  /** The session as its event feed sees it. */
  private feedSession(): FeedSession {
    return {
      accountId: () => this.accountId,
      connected: () => this.state === 'connected',
      subscriptions: this.subscriptions,
      bufferedAmount: () => this.ws.bufferedAmount,
      nextMessageId: () => this.nextMessageId(),
      send: (text) => this.send(text),
      fail: (code, message) => this.fail(code, message),
    };
  }
}
