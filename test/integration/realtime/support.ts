// Shared by the realtime tests: two chat nodes on the test run's PostgreSQL and Redis (each with its own
// listener, gateway and outbox worker), @stomp/stompjs clients over `ws`, and a raw WebSocket for frames that
// no well-behaved client sends.
import { Client, type IFrame, type IMessage } from '@stomp/stompjs';
import WebSocket from 'ws';
import type { Config } from '../../../src/platform/config/index.js';
import { eventually } from '../../helpers/expect.js';
import { call, startTestPlatform, type TestAccount, type TestPlatform } from '../../support/platform.js';

export const wsUrl = (p: TestPlatform) => `${p.chatUrl.replace(/^http/, 'ws')}/ws`;

/** A chat node with its outbox worker; started one after the other (the second finds the schema migrated). */
export function startNode(overrides: Partial<Config> = {}): Promise<TestPlatform> {
  return startTestPlatform({ services: ['chat', 'workers'], ...overrides });
}

export interface EventBody {
  seq: number;
  eventId: string;
  topic: string;
  createdAt: string;
  payload: Record<string, any>;
}

export interface StompErrorInfo {
  code: string;
  message: string;
}

/** A @stomp/stompjs client that records what it receives; it does not reconnect by itself. */
export class Probe {
  readonly events: EventBody[] = [];
  /** The seq header of each MESSAGE of /user/queue/events, beside its body. */
  readonly seqHeaders: number[] = [];
  readonly notices: Array<Record<string, any>> = [];
  readonly errors: StompErrorInfo[] = [];
  connected!: IFrame;
  closeCode: number | undefined;
  private receipts = 0;

  private constructor(readonly client: Client) {}

  /** Connects; rejects with the ERROR frame's code when the server refuses. */
  static open(url: string, token: string | null, options: { heartbeatMs?: number; headers?: Record<string, string> } = {}): Promise<Probe> {
    const client = new Client({
      webSocketFactory: () => new WebSocket(url) as never,
      reconnectDelay: 0,
      heartbeatIncoming: options.heartbeatMs ?? 10_000,
      heartbeatOutgoing: options.heartbeatMs ?? 10_000,
      connectHeaders: { ...(token === null ? {} : { Authorization: `Bearer ${token}` }), ...options.headers },
      debug: () => undefined,
    });
    const probe = new Probe(client);
    return new Promise((resolve, reject) => {
      let settled = false;
      client.onConnect = (frame) => {
        probe.connected = frame;
        settled = true;
        resolve(probe);
      };
      client.onStompError = (frame) => {
        const error = { code: frame.headers.code ?? '', message: frame.headers.message ?? '' };
        probe.errors.push(error);
        if (!settled) {
          settled = true;
          reject(Object.assign(new Error(`STOMP ERROR ${error.code}: ${error.message}`), { stomp: error }));
        }
      };
      client.onWebSocketClose = (event: { code: number }) => {
        probe.closeCode = event.code;
        if (!settled) {
          settled = true;
          reject(new Error(`closed with ${event.code} before CONNECTED`));
        }
      };
      client.activate();
    });
  }

  /** The refusal of a CONNECT: the ERROR frame's code and message. */
  static async refusal(url: string, token: string | null, headers?: Record<string, string>): Promise<StompErrorInfo> {
    try {
      const probe = await Probe.open(url, token, headers ? { headers } : {});
      await probe.close();
    } catch (err) {
      const stomp = (err as { stomp?: StompErrorInfo }).stomp;
      if (stomp) return stomp;
      throw err;
    }
    throw new Error('the server accepted the connection');
  }

  get lastSeq(): number {
    return Number(this.connected.headers['last-seq']);
  }

  /** Subscribes and resolves once the server's RECEIPT says the subscription is in place. */
  subscribeEvents(resumeAfter?: number, id = 'events'): Promise<void> {
    return this.subscribe('/user/queue/events', id, resumeAfter === undefined ? {} : { 'resume-after': String(resumeAfter) }, (m) => {
      this.events.push(JSON.parse(m.body) as EventBody);
      this.seqHeaders.push(Number(m.headers.seq));
    });
  }

  subscribeSession(): Promise<void> {
    return this.subscribe('/user/queue/session', 'session', {}, (m) => this.notices.push(JSON.parse(m.body) as Record<string, any>));
  }

  private subscribe(destination: string, id: string, headers: Record<string, string>, onMessage: (m: IMessage) => void): Promise<void> {
    const receipt = `r-${++this.receipts}`;
    return new Promise((resolve) => {
      this.client.watchForReceipt(receipt, () => resolve());
      this.client.subscribe(destination, onMessage, { id, receipt, ...headers });
    });
  }

  /** Waits until an event matches. */
  waitFor(predicate: (e: EventBody) => boolean, timeoutMs = 5000): Promise<EventBody> {
    return eventually(async () => this.events.find(predicate), timeoutMs);
  }

  waitForClose(timeoutMs = 5000): Promise<number> {
    return eventually(async () => (this.closeCode === undefined ? undefined : this.closeCode), timeoutMs);
  }

  async close(): Promise<void> {
    await this.client.deactivate();
  }
}

/** Server frames as text, read off a plain WebSocket. */
export interface RawFrame {
  command: string;
  headers: Record<string, string>;
  body: string;
}

/** A WebSocket speaking STOMP by hand, for frames @stomp/stompjs would never send. */
export class RawStomp {
  readonly frames: RawFrame[] = [];
  heartbeats = 0;
  closeCode: number | undefined;
  private pending = '';

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => this.take(data.toString('utf8')));
    ws.on('close', (code: number) => {
      this.closeCode = code;
    });
    ws.on('error', () => undefined);
  }

  static open(url: string): Promise<RawStomp> {
    const ws = new WebSocket(url);
    const raw = new RawStomp(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(raw));
      ws.once('error', reject);
    });
  }

  /** Opens and sends CONNECT with the token; resolves once CONNECTED (or the first frame) arrived. */
  static async connected(url: string, token: string, heartBeat = '0,0'): Promise<RawStomp> {
    const raw = await RawStomp.open(url);
    raw.send(`CONNECT\naccept-version:1.2\nheart-beat:${heartBeat}\nAuthorization:Bearer ${token}\n\n\0`);
    const first = await raw.next();
    if (first.command !== 'CONNECTED') throw new Error(`expected CONNECTED, got ${JSON.stringify(first)}`);
    return raw;
  }

  send(data: string | Buffer): void {
    this.ws.send(data);
  }

  private take(text: string): void {
    this.pending += text;
    for (;;) {
      while (this.pending.startsWith('\n') || this.pending.startsWith('\r\n')) {
        this.pending = this.pending.slice(this.pending.startsWith('\n') ? 1 : 2);
        this.heartbeats++;
      }
      const end = this.pending.indexOf('\0');
      if (end < 0) return;
      const raw = this.pending.slice(0, end);
      this.pending = this.pending.slice(end + 1);
      const [head = '', ...rest] = raw.split('\n\n');
      const [command = '', ...lines] = head.split('\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const i = line.indexOf(':');
        headers[line.slice(0, i)] ??= line.slice(i + 1);
      }
      this.frames.push({ command, headers, body: rest.join('\n\n') });
    }
  }

  private read = 0;

  /** The next frame not read yet. */
  async next(timeoutMs = 5000): Promise<RawFrame> {
    const frame = await eventually(async () => this.frames[this.read], timeoutMs, 10);
    this.read++;
    return frame;
  }

  /** The first ERROR frame, once the socket has closed after it. */
  async error(timeoutMs = 5000): Promise<RawFrame> {
    const frame = await eventually(async () => this.frames.find((f) => f.command === 'ERROR'), timeoutMs, 10);
    await eventually(async () => this.closeCode !== undefined, timeoutMs, 10);
    return frame;
  }

  close(): void {
    this.ws.terminate();
  }
}

// ------------------------------------------------------------------------------------------------ REST

export async function api(p: TestPlatform, who: TestAccount | string, method: string, path: string, body?: unknown): Promise<any> {
  const token = typeof who === 'string' ? who : who.token;
  const res = await call(p.chatUrl, method, `/api/v1${path}`, { token, ...(body === undefined ? {} : { body }) });
  if (res.status >= 300) throw new Error(`${method} ${path}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function createRoom(p: TestPlatform, owner: TestAccount, members: TestAccount[], name = 'Realtime'): Promise<string> {
  const room = await api(p, owner, 'POST', '/rooms', { type: 'GROUP', name, memberIds: members.map((m) => m.id) });
  return room.id as string;
}

export async function send(p: TestPlatform, who: TestAccount, roomId: string, text: string): Promise<string> {
  const message = await api(p, who, 'POST', `/rooms/${roomId}/messages`, { text });
  return message.id as string;
}

/** The account's log after `after`, read over REST (every page). */
export async function restEvents(p: TestPlatform, who: TestAccount, after: number): Promise<EventBody[]> {
  const out: EventBody[] = [];
  for (let cursor = after; ;) {
    const page = await api(p, who, 'GET', `/me/events?after=${cursor}&limit=500`);
    out.push(...(page.events as EventBody[]));
    if (!page.hasMore) return out;
    cursor = out[out.length - 1]!.seq;
  }
}

export const isMessageIn = (roomId: string) => (e: EventBody) => e.topic === 'message.created' && e.payload.roomId === roomId;
