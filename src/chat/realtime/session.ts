// One STOMP 1.2 session over one WebSocket: CONNECT with the bearer token, heart-beats as negotiated, the two
// user destinations, receipts, and an ERROR frame followed by the close for anything refused.
import type { WebSocket } from 'ws';
import { AppError } from '../../platform/http/app-error.js';
import { stompFramesReceived, stompFramesSent, stompSlowConsumersDropped } from '../../platform/metrics/realtime.js';
import type { Caller } from '../base/context.js';
import { presenceMinRefreshMs, presenceTtlIntervals } from '../presence/limits.js';
import {
  escapeValue,
  eventFrame,
  eventFrameParts,
  FrameParser,
  serializeFrame,
  StompProtocolError,
  type EventFrameParts,
  type Frame,
} from './frame.js';
import type { LogPage } from './log.js';
import type { RealtimeOptions } from './options.js';

export const EVENTS = '/user/queue/events';
export const SESSION = '/user/queue/session';
/** Typing and presence notices: no seq, no log, nothing to resume (docs/realtime.md "Presence and typing"). */
export const EPHEMERAL = '/user/queue/ephemeral';
/** The one destination a client may SEND to. */
const typingDestination = /^\/app\/rooms\/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\/typing$/;

/** What a session needs from its gateway. */
export interface SessionHost {
  readonly options: RealtimeOptions;
  /** Verifies a bearer token as the REST listener does; throws its AppError. Returns the token's exp (epoch s). */
  authenticate(token: string): Promise<{ caller: Caller; exp: number }>;
  /** Milliseconds until the epoch-second `exp` on the service's clock. */
  msUntil(exp: number): number;
  /** Adds the session to its account's; returns false when the account has too many open sessions. */
  register(session: StompSession): boolean;
  unregister(session: StompSession): void;
  /** The account's status read now, past every cache; null when the account is gone. */
  statusOf(accountId: string): Promise<string | null>;
  readLog(accountId: string, after: number, limit: number): Promise<LogPage>;
  lastSeq(accountId: string): Promise<number>;
  /** A typing notice of the account in the room; throws the REST operation's AppError (404, 429). */
  typing(accountId: string, roomId: string): Promise<void>;
  /** The session is alive (connected, or a heart-beat came): its presence entry lasts ttlMs from now. */
  presenceAlive(session: StompSession, ttlMs: number): void;
  onError(err: unknown, what: string): void;
}

/** The notice bodies of /user/queue/session. */
export interface SessionNotice {
  type: 'soft-kick' | 'restarting';
  reason: string;
  message: string;
  status?: string;
}

interface EventSubscription {
  id: string;
  destination: typeof EVENTS;
  /** `subscription:<id>`, escaped once. */
  idHeader: string;
  /** Highest seq sent; undefined until the starting position is known. */
  lastSent: number | undefined;
  /** live: deliveries go straight out; otherwise the log is being read and deliveries only leave a mark. */
  live: boolean;
  /** Highest and lowest seq announced while not live. */
  pendingMax: number;
  pendingMin: number;
  reading: boolean;
}

interface NoticeSubscription {
  id: string;
  destination: typeof SESSION | typeof EPHEMERAL;
}

type Subscription = EventSubscription | NoticeSubscription;

type State = 'awaiting-connect' | 'authenticating' | 'connected' | 'closing';

const closeCodes = { normal: 1000, policy: 1008, tooBig: 1009, restart: 1012 } as const;

let sessionCounter = 0;

export class StompSession {
  readonly id = `s${process.pid.toString(36)}-${(++sessionCounter).toString(36)}`;
  accountId: string | undefined;
  private state: State = 'awaiting-connect';
  private readonly parser: FrameParser;
  private readonly subscriptions = new Map<string, Subscription>();
  private chain: Promise<void> = Promise.resolve();
  private messageCounter = 0;
  private lastReceivedAt = Date.now();
  private lastSentAt = Date.now();
  private sendEvery = 0;
  private expectEvery = 0;
  private pingEvery = 0;
  private lastPingAt = 0;
  private windowStart = Date.now();
  private windowCount = 0;
  private readonly timers: NodeJS.Timeout[] = [];
  /** True from CONNECTED until the gateway has removed the session's presence entry. */
  presenceOpen = false;
  private presenceRefreshMs = presenceMinRefreshMs;
  private presenceRefreshedAt = 0;

  constructor(
    private readonly ws: WebSocket,
    private readonly host: SessionHost,
  ) {
    this.parser = new FrameParser({ maxFrameBytes: host.options.maxFrameBytes, maxHeaders: host.options.maxHeaders });
    ws.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => this.onMessage(toBuffer(data)));
    ws.on('pong', () => {
      this.lastReceivedAt = Date.now();
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

  get isOpen(): boolean {
    return this.state !== 'closing';
  }

  // ------------------------------------------------------------------------------------------------ input

  private onMessage(data: Buffer): void {
    if (this.state === 'closing') return;
    this.lastReceivedAt = Date.now();
    this.alive();
    let parsed: { frames: Frame[]; heartbeats: number };
    try {
      parsed = this.parser.push(data);
    } catch (err) {
      if (err instanceof StompProtocolError)
        return this.fail(err.code, err.message, undefined, err.code === 'frame_too_large' ? closeCodes.tooBig : closeCodes.policy);
      throw err;
    }
    // A flood of small frames, or of messages carrying only heart-beats, counts alike.
    const now = Date.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.windowCount = 0;
    }
    this.windowCount += Math.max(1, parsed.frames.length);
    if (parsed.frames.length > 0) stompFramesReceived.inc(parsed.frames.length);
    if (this.windowCount > this.host.options.maxFramesPerSecond) {
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
        const id = required(frame, 'id');
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
    const versions = (frame.headers.get('accept-version') ?? '').split(',').map((v) => v.trim());
    if (!versions.includes('1.2'))
      throw new StompProtocolError('unsupported_version', 'this server speaks STOMP 1.2 only (accept-version must list 1.2)');
    const heartBeat = frame.headers.get('heart-beat') ?? '0,0';
    const hb = /^(\d{1,9}),(\d{1,9})$/.exec(heartBeat);
    if (!hb) throw new StompProtocolError('malformed_frame', 'heart-beat must be two numbers of milliseconds: cx,cy');
    const token = bearerOf(frame);
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
    const [cx, cy] = [Number(hb[1]), Number(hb[2])];
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
    this.startHeartbeats(sendEvery, expectEvery);
    // The entry outlives a few heart-beat intervals (or pings, for clients without heart-beats) unrefreshed.
    this.presenceRefreshMs = Math.max(presenceMinRefreshMs, expectEvery || Math.max(30_000, heartbeatMs));
    this.presenceOpen = true;
    this.presenceRefreshedAt = Date.now();
    this.host.presenceAlive(this, this.presenceRefreshMs * presenceTtlIntervals);
    this.later(this.host.msUntil(exp), () => this.fail('token_expired', 'the bearer token expired; reconnect with a fresh token'));
  }

  private subscribe(frame: Frame): void {
    const id = required(frame, 'id');
    const destination = required(frame, 'destination');
    if (this.subscriptions.has(id)) throw new StompProtocolError('duplicate_subscription', `subscription id "${id}" is in use`);
    const ack = frame.headers.get('ack') ?? 'auto';
    if (ack !== 'auto') throw new StompProtocolError('ack_not_supported', 'only ack:auto subscriptions are supported');
    if (this.subscriptions.size >= this.host.options.maxSubscriptions) {
      throw new StompProtocolError('too_many_subscriptions', `a connection may hold ${this.host.options.maxSubscriptions} subscriptions`);
    }
    const resume = frame.headers.get('resume-after');
    if (destination === SESSION || destination === EPHEMERAL) {
      if (resume !== undefined) throw new StompProtocolError('invalid_header', 'resume-after applies to /user/queue/events only');
      this.subscriptions.set(id, { id, destination });
      return;
    }
    if (destination !== EVENTS)
      throw new StompProtocolError(
        'unknown_destination',
        `no destination "${destination.slice(0, 100)}"; use ${EVENTS}, ${EPHEMERAL} or ${SESSION}`,
      );
    if (resume !== undefined && !/^\d{1,15}$/.test(resume))
      throw new StompProtocolError('invalid_header', 'resume-after must be a seq (a whole number)');
    const sub: EventSubscription = {
      id,
      destination,
      idHeader: `subscription:${escapeValue(id)}`,
      lastSent: resume === undefined ? undefined : Number(resume),
      live: false,
      pendingMax: 0,
      pendingMin: Number.MAX_SAFE_INTEGER,
      reading: false,
    };
    this.subscriptions.set(id, sub);
    void this.readLog(sub);
  }

  /**
   * SEND to /app/rooms/{roomId}/typing: the REST twin's rules. A non-member gets the ERROR frame; a notice within
   * the rate window is dropped without an error (the receipt still comes), since a client repeating it while the
   * user types is behaving as meant.
   */
  private async sendTyping(frame: Frame): Promise<void> {
    const destination = required(frame, 'destination');
    const match = typingDestination.exec(destination);
    if (!match)
      throw new StompProtocolError(
        'send_not_supported',
        'clients SEND only to /app/rooms/{roomId}/typing; changes go through the REST API',
      );
    try {
      await this.host.typing(this.accountId!, match[1]!.toLowerCase());
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

  // --------------------------------------------------------------------------------------------- delivery

  /**
   * An event announced for this session's account. Live subscriptions send it when it is the next seq; a gap
   * (an announcement lost or reordered) or a subscription still reading the log sends the session to the log.
   */
  deliver(seq: number, event: EventFrameParts): void {
    if (this.state !== 'connected') return;
    for (const sub of this.subscriptions.values()) {
      if (sub.destination !== EVENTS) continue;
      if (!sub.live || sub.lastSent === undefined) {
        sub.pendingMax = Math.max(sub.pendingMax, seq);
        sub.pendingMin = Math.min(sub.pendingMin, seq);
        continue;
      }
      if (seq <= sub.lastSent) continue;
      if (seq === sub.lastSent + 1) {
        this.sendEvent(sub, seq, event);
        continue;
      }
      sub.live = false;
      sub.pendingMax = seq;
      void this.readLog(sub);
    }
  }

  /** A typing or presence notice for this session's account: straight out to every /user/queue/ephemeral subscription. */
  deliverEphemeral(topic: string, body: string): void {
    if (this.state !== 'connected') return;
    for (const sub of this.subscriptions.values()) {
      if (sub.destination !== EPHEMERAL) continue;
      this.send(
        serializeFrame(
          'MESSAGE',
          [
            ['subscription', sub.id],
            ['message-id', `${this.id}-${++this.messageCounter}`],
            ['destination', EPHEMERAL],
            ['content-type', 'application/json'],
            ['topic', topic],
          ],
          body,
        ),
      );
    }
  }

  /** Reads the log after lastSent until it has caught up with every announcement seen meanwhile, then goes live. */
  async readLog(sub: EventSubscription): Promise<void> {
    if (sub.reading || !this.accountId) return;
    sub.reading = true;
    const accountId = this.accountId;
    try {
      if (sub.lastSent === undefined) {
        // A subscription without resume-after starts at the newest event, or before the first one announced
        // since it was made.
        const last = await this.host.lastSeq(accountId);
        sub.lastSent = Math.min(last, sub.pendingMin - 1);
      }
      let emptyReads = 0;
      for (;;) {
        if (!this.subscriptions.has(sub.id) || this.state !== 'connected') return;
        const after: number = sub.lastSent!;
        const page = await this.host.readLog(accountId, after, this.host.options.catchUpPage);
        if (!this.subscriptions.has(sub.id) || this.state !== 'connected') return;
        if (page.expired || after > page.lastSeq) {
          return this.fail(
            'resync_required',
            page.expired
              ? `events after seq ${after} are past the retention window; refetch state and subscribe without resume-after`
              : `resume-after ${after} is beyond the newest event (${page.lastSeq}); subscribe without resume-after`,
          );
        }
        for (const e of page.events) this.sendEvent(sub, e.seq, eventParts(e.eventId, e.topic, e.createdAt, e.payload));
        if (page.hasMore) {
          await this.drained();
          continue;
        }
        // An announcement that came while reading may be of a row the read could not see yet: read again.
        if (sub.pendingMax > sub.lastSent!) {
          emptyReads = page.events.length === 0 ? emptyReads + 1 : 0;
          if (emptyReads < 3) continue;
        }
        break;
      }
      sub.live = true;
      sub.pendingMax = 0;
      sub.pendingMin = Number.MAX_SAFE_INTEGER;
    } catch (err) {
      this.host.onError(err, 'reading the event log');
      this.fail('internal_error', 'the event log could not be read; resume with resume-after');
    } finally {
      sub.reading = false;
    }
  }

  /** Sessions whose newest seq in the log is ahead of what a live subscription sent: read the log. */
  behind(lastSeq: number): void {
    for (const sub of this.subscriptions.values()) {
      if (sub.destination === EVENTS && sub.live && sub.lastSent !== undefined && sub.lastSent < lastSeq) {
        sub.live = false;
        sub.pendingMax = lastSeq;
        void this.readLog(sub);
      }
    }
  }

  get hasLiveEvents(): boolean {
    for (const sub of this.subscriptions.values()) if (sub.destination === EVENTS && sub.live) return true;
    return false;
  }

  private sendEvent(sub: EventSubscription, seq: number, event: EventFrameParts): void {
    sub.lastSent = seq;
    const leading = `${sub.idHeader}\nmessage-id:${this.id}-${++this.messageCounter}\ndestination:${EVENTS}\ncontent-type:application/json`;
    this.send(eventFrame(leading, seq, event));
  }

  /** Waits while the socket's send buffer is above half the limit (a large catch-up), at most a few seconds. */
  private async drained(): Promise<void> {
    for (let i = 0; i < 100 && this.ws.bufferedAmount > this.host.options.maxBufferedBytes / 2; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  // ------------------------------------------------------------------------------------- ending sessions

  /** A notice on /user/queue/session when subscribed; true when one was sent. */
  private notice(notice: SessionNotice): boolean {
    let sent = false;
    for (const sub of this.subscriptions.values()) {
      if (sub.destination !== SESSION) continue;
      this.send(
        serializeFrame(
          'MESSAGE',
          [
            ['subscription', sub.id],
            ['message-id', `${this.id}-${++this.messageCounter}`],
            ['destination', SESSION],
            ['content-type', 'application/json'],
            ['notice', notice.type],
          ],
          JSON.stringify(notice),
        ),
      );
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
    const headers: Array<[string, string]> = [
      ['message', message.slice(0, 200)],
      ['code', code],
      ['content-type', 'text/plain'],
    ];
    if (receipt !== undefined) headers.push(['receipt-id', receipt]);
    this.send(serializeFrame('ERROR', headers, message));
    this.close(closeCode, code);
  }

  private close(code: number, reason: string): void {
    if (this.state === 'closing') return;
    this.state = 'closing';
    this.stopTimers();
    this.host.unregister(this);
    try {
      this.ws.close(code, reason.slice(0, 100));
    } catch {
      this.ws.terminate();
    }
    // A client that does not answer the close handshake is cut off.
    const cut = setTimeout(() => this.ws.terminate(), 2_000);
    cut.unref();
  }

  private closed(): void {
    this.state = 'closing';
    this.stopTimers();
    this.host.unregister(this);
  }

  /** Cuts the connection without a frame (the node is going away after its notices). */
  terminate(): void {
    this.closed();
    this.ws.terminate();
  }

  // ----------------------------------------------------------------------------------------- plumbing

  private send(text: string | Buffer): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > this.host.options.maxBufferedBytes && this.state !== 'closing') {
      // A client that does not read: end the session rather than queue without bound; it resumes from its seq.
      this.state = 'closing';
      this.stopTimers();
      this.host.unregister(this);
      this.ws.terminate();
      stompSlowConsumersDropped.inc();
      return;
    }
    this.lastSentAt = Date.now();
    this.ws.send(text, textMessage);
    stompFramesSent.inc();
  }

  /** Heart-beats as negotiated; the gateway's sweep (tick) sends and checks them, so a session holds no timer for them. */
  private startHeartbeats(sendEvery: number, expectEvery: number): void {
    this.sendEvery = sendEvery;
    this.expectEvery = expectEvery;
    // A client that sends no heart-beats is still asked for WebSocket pongs, so a dead peer does not linger.
    this.pingEvery = expectEvery > 0 ? 0 : Math.max(30_000, this.host.options.heartbeatMs);
    this.lastPingAt = Date.now();
  }

  /**
   * The gateway's sweep, every `slackMs / 2` or so: a heart-beat once nothing went out for the negotiated interval
   * less `slackMs` (so the gap stays below it however the sweep falls), the close of a peer silent for twice its
   * interval, and the ping of a client without heart-beats.
   */
  tick(now: number, slackMs: number): void {
    if (this.state !== 'connected') return;
    if (this.sendEvery > 0 && now - this.lastSentAt >= this.sendEvery - slackMs) this.send(heartbeatEol);
    if (this.expectEvery > 0) {
      if (now - this.lastReceivedAt > 2 * this.expectEvery)
        this.fail('heartbeat_timeout', `nothing received for more than ${2 * this.expectEvery} ms`);
    } else if (now - this.lastPingAt >= this.pingEvery) {
      if (now - this.lastReceivedAt > 2 * this.pingEvery) return this.terminate();
      this.lastPingAt = now;
      this.ws.ping();
    }
  }

  private later(ms: number, fn: () => void): void {
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

/**
 * The frame parts of an event: its MESSAGE body is the object GET /api/v1/me/events returns, `{"seq":N` and then
 * the rest, which is the same for every recipient.
 */
export function eventParts(eventId: string, topic: string, createdAt: string, payload: unknown): EventFrameParts {
  return eventFrameParts(topic, eventId, ',' + JSON.stringify({ eventId, topic, createdAt, payload }).slice(1));
}

/** A heart-beat, as bytes: one shared buffer rather than a string encoded for every session at every beat. */
const heartbeatEol = Buffer.from('\n');
/** Every frame goes as a text message, the heart-beat's buffer included. */
const textMessage = { binary: false } as const;

function required(frame: Frame, name: string): string {
  const value = frame.headers.get(name);
  if (value === undefined || value === '') throw new StompProtocolError('missing_header', `${frame.command} needs a ${name} header`);
  return value;
}

/** The token from `Authorization: Bearer <jwt>`, or from passcode (with or without "Bearer "). */
function bearerOf(frame: Frame): string {
  const header = frame.headers.get('Authorization') ?? frame.headers.get('authorization');
  const raw = header ?? frame.headers.get('passcode');
  if (raw === undefined || raw === '')
    throw new StompProtocolError('unauthenticated', 'CONNECT needs an Authorization header "Bearer <jwt>" (or the token as passcode)');
  const match = /^Bearer\s+(\S+)$/i.exec(raw);
  if (match) return match[1]!;
  if (header === undefined && !/\s/.test(raw)) return raw;
  throw new StompProtocolError('token_malformed', 'the Authorization header must be "Bearer <jwt>"');
}

function refusedStatus(status: string | null): StompProtocolError {
  if (status === 'BANNED') return new StompProtocolError('account_banned', 'the account is banned');
  if (status === null) return new StompProtocolError('account_unknown', 'the account does not exist');
  return new StompProtocolError('account_deactivated', 'the account is deactivated');
}

function toBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
