// One load-generator process of the sockets benchmark (test/bench/sockets.ts): opens STOMP sessions over `ws` from
// one loopback source address, keeps them alive with heart-beats, and records, per topic, the time from each
// event's createdAt to its arrival. A bare frame writer rather than @stomp/stompjs, so that one process can hold
// 20,000 sessions: the figures are the server's, not the generator's. Driven by its parent over IPC.
import { importJWK, SignJWT, type JWK } from 'jose';
import WebSocket from 'ws';

export interface SwarmConnect {
  type: 'connect';
  url: string;
  localAddress: string;
  accountIds: string[];
  jwk: JWK;
  kid: string;
  issuer: string;
  audience: string;
  customer: string;
  heartbeatMs: number;
  /** Bare WebSocket peers (the baseline server): no STOMP, every message is a JSON body. */
  raw?: boolean;
  inFlight: number;
}

export type SwarmCommand = SwarmConnect | { type: 'collect'; topic: string } | { type: 'close' };

export type SwarmReply =
  | { type: 'connected'; open: number; failed: number; firstError?: string; seconds: number }
  | {
      type: 'collected';
      topic: string;
      latencies: number[];
      bytes: number;
      closed: number;
      closeReasons: Record<string, number>;
      /** Epoch ms of the first close by the server, if any. */
      firstClosedAt?: number;
      /** The longest the heart-beat timer ran late: how far this process itself fell behind. */
      maxTimerLagMs: number;
    }
  | { type: 'closed' };

const sockets: WebSocket[] = [];
const latencies = new Map<string, number[]>();
const bytes = new Map<string, number>();
/** Sessions the server closed after they opened, by close code and reason. */
const closeReasons: Record<string, number> = {};
let closed = 0;
let firstClosedAt: number | undefined;
let maxTimerLagMs = 0;
/** When each session's next heart-beat is due (epoch ms), by its index in `sockets`. */
const beatDue: number[] = [];
let beatEveryMs = 0;

function record(body: string): void {
  const received = Date.now();
  const event = JSON.parse(body) as { topic?: string; createdAt?: string };
  const topic = event.topic ?? 'unknown';
  let list = latencies.get(topic);
  if (!list) latencies.set(topic, (list = []));
  list.push(received - Date.parse(event.createdAt ?? ''));
  bytes.set(topic, (bytes.get(topic) ?? 0) + Buffer.byteLength(body));
}

function frame(command: string, headers: Record<string, string>): string {
  return `${command}\n${Object.entries(headers)
    .map(([k, v]) => `${k}:${v}`)
    .join('\n')}\n\n\0`;
}

/** Opens one session; resolves once it is subscribed (STOMP) or open (raw), rejects with the server's reason. */
function open(c: SwarmConnect, token: string, localPort: number): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(c.url, { localAddress: c.localAddress, localPort, perMessageDeflate: false } as WebSocket.ClientOptions);
    let ready = false;
    ws.on('error', (err) => (ready ? undefined : reject(err)));
    ws.on('close', (code, reason) => {
      if (!ready) return reject(new Error(`closed ${code} ${reason.toString()}`));
      closed++;
      firstClosedAt ??= Date.now();
      const key = `${code} ${reason.toString()}`.trim();
      closeReasons[key] = (closeReasons[key] ?? 0) + 1;
    });
    if (c.raw) {
      ws.on('open', () => {
        ready = true;
        resolve(ws);
      });
      ws.on('message', (data) => record(data.toString()));
      return;
    }
    ws.on('open', () => {
      ws.send(
        frame('CONNECT', {
          'accept-version': '1.2',
          host: 'bench',
          Authorization: `Bearer ${token}`,
          'heart-beat': `${c.heartbeatMs},${c.heartbeatMs}`,
        }),
      );
    });
    ws.on('message', (data) => {
      const text = data.toString();
      if (text === '\n' || text.trim() === '') return;
      const command = text.slice(0, text.indexOf('\n'));
      if (command === 'MESSAGE') {
        const start = text.indexOf('\n\n') + 2;
        record(text.slice(start, text.endsWith('\0') ? -1 : undefined));
      } else if (command === 'CONNECTED') {
        ws.send(frame('SUBSCRIBE', { id: 'events', destination: '/user/queue/events', receipt: 'subscribed' }));
      } else if (command === 'RECEIPT' && !ready) {
        ready = true;
        resolve(ws);
      } else if (command === 'ERROR') {
        reject(new Error(text.split('\n').find((l) => l.startsWith('message:')) ?? 'ERROR frame'));
      }
    });
  });
}

/**
 * Source ports are chosen here, one after another, rather than by the kernel: binding a socket to a source address
 * with port 0 makes the kernel search the ports already bound on it, which costs milliseconds per connection once
 * tens of thousands are open; a given port binds at once.
 */
let lastPort = 1023;
function nextPort(): number {
  lastPort = lastPort >= 65_535 ? 1024 : lastPort + 1;
  return lastPort;
}

async function connectAll(c: SwarmConnect): Promise<SwarmReply> {
  const started = Date.now();
  // A heart-beat a second before the negotiated interval ends, as the node counts a session silent only after two.
  beatEveryMs = Math.max(c.heartbeatMs - 1_000, c.heartbeatMs / 2);
  const key = await importJWK(c.jwk, 'ES256');
  const nowSec = Math.floor(Date.now() / 1000);
  let next = 0;
  let failed = 0;
  let firstError: string | undefined;
  const worker = async () => {
    while (next < c.accountIds.length) {
      const id = c.accountIds[next++]!;
      const token = c.raw
        ? ''
        : await new SignJWT({ cid: c.customer })
            .setProtectedHeader({ alg: 'ES256', kid: c.kid })
            .setIssuer(c.issuer)
            .setSubject(id)
            .setAudience(c.audience)
            .setIssuedAt(nowSec)
            .setExpirationTime(nowSec + 7_200)
            .sign(key);
      for (let attempt = 1; ; attempt++) {
        try {
          sockets.push(await open(c, token, nextPort()));
          beatDue.push(Date.now() + beatEveryMs);
          break;
        } catch (err) {
          // A port a server listens on for every address (PostgreSQL, the node itself): take the next one.
          if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 20) continue;
          failed++;
          firstError ??= (err as Error).message;
          break;
        }
      }
    }
  };
  if (!c.raw && c.heartbeatMs > 0) {
    // One timer for every session, running while the rest still connect: each tick sends a heart-beat to every
    // session whose own is due, so a tick that runs late (this process shares the cores with the node) sends the
    // overdue ones at once rather than stretching every later period.
    const tickMs = 250;
    let due = Date.now() + tickMs;
    setInterval(() => {
      const now = Date.now();
      maxTimerLagMs = Math.max(maxTimerLagMs, now - due);
      due = now + tickMs;
      for (let i = 0; i < sockets.length; i++) {
        if (beatDue[i]! > now) continue;
        beatDue[i] = now + beatEveryMs;
        if (sockets[i]!.readyState === WebSocket.OPEN) sockets[i]!.send('\n');
      }
    }, tickMs).unref();
  }
  await Promise.all(Array.from({ length: c.inFlight }, worker));
  return { type: 'connected', open: sockets.length, failed, firstError, seconds: (Date.now() - started) / 1000 };
}

process.on('message', (command: SwarmCommand) => {
  const reply = (r: SwarmReply) => process.send!(r);
  if (command.type === 'connect') {
    connectAll(command).then(reply, (err: unknown) =>
      reply({ type: 'connected', open: 0, failed: command.accountIds.length, firstError: String(err), seconds: 0 }),
    );
  } else if (command.type === 'collect') {
    reply({
      type: 'collected',
      topic: command.topic,
      latencies: latencies.get(command.topic) ?? [],
      bytes: bytes.get(command.topic) ?? 0,
      closed,
      closeReasons,
      firstClosedAt,
      maxTimerLagMs,
    });
    latencies.delete(command.topic);
    bytes.delete(command.topic);
  } else {
    for (const s of sockets) s.terminate();
    reply({ type: 'closed' });
    setImmediate(() => process.exit(0));
  }
});
