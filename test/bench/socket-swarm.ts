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
function open(c: SwarmConnect, token: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(c.url, { localAddress: c.localAddress, perMessageDeflate: false });
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

async function connectAll(c: SwarmConnect): Promise<SwarmReply> {
  const started = Date.now();
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
      try {
        sockets.push(await open(c, token));
      } catch (err) {
        failed++;
        firstError ??= (err as Error).message;
      }
    }
  };
  if (!c.raw && c.heartbeatMs > 0) {
    // One timer for every session, running while the rest still connect: each tick sends the heart-beat of a tenth
    // of them, so each gets one per half period. Half, as many STOMP clients do: while sessions are still being
    // opened this process falls seconds behind on a shared machine, and a heart-beat late by a whole period would
    // have the node close a healthy session for what is the generator's own delay.
    const tickMs = c.heartbeatMs / 20;
    let slice = 0;
    let due = Date.now() + tickMs;
    setInterval(() => {
      maxTimerLagMs = Math.max(maxTimerLagMs, Date.now() - due);
      due = Date.now() + tickMs;
      for (let i = slice; i < sockets.length; i += 10) if (sockets[i]!.readyState === WebSocket.OPEN) sockets[i]!.send('\n');
      slice = (slice + 1) % 10;
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
