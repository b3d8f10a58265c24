// A real HTTPS webhook receiver for tests and benchmarks: a certificate from a tiny CA, every request recorded with
// its raw body and headers, answers decided per request, and the ability to go down and come back on its port.
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createTinyCa, type TinyCa } from './tls-ca.js';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

export interface Answer {
  status: number;
  body?: string;
  /** Waits this long before answering. */
  delayMs?: number;
}

export type Responder = (request: ReceivedRequest) => Answer;

export interface WebhookReceiver {
  /** https://127.0.0.1:<port> */
  origin: string;
  port: number;
  ca: TinyCa;
  /** A file holding the CA's PEM, for WEBHOOK_CA_FILE. */
  caFile: string;
  received: ReceivedRequest[];
  respond(fn: Responder): void;
  /** Resolves once `predicate` holds over the received requests; rejects after timeoutMs. */
  waitFor(predicate: (received: ReceivedRequest[]) => boolean, timeoutMs?: number): Promise<void>;
  /** Stops listening and drops open connections: senders then get no answer. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(options: { ca?: TinyCa; hosts?: string[] } = {}): Promise<WebhookReceiver> {
  const ca = options.ca ?? createTinyCa();
  const issued = ca.issue(options.hosts ?? ['localhost', '127.0.0.1']);
  const caFile = join(tmpdir(), `webhook-ca-${randomUUID()}.pem`);
  await writeFile(caFile, ca.certPem);
  const received: ReceivedRequest[] = [];
  let responder: Responder = () => ({ status: 200, body: 'ok' });
  const waiters = new Set<() => void>();

  const makeServer = (): Server =>
    createServer({ key: issued.keyPem, cert: issued.certPem, keepAliveTimeout: 30_000 }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const request: ReceivedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks),
          at: Date.now(),
        };
        received.push(request);
        for (const w of waiters) w();
        const answer = responder(request);
        const send = () => res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? '');
        if (answer.delayMs) setTimeout(send, answer.delayMs);
        else send();
      });
    });

  let server = makeServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });

  return {
    origin: `https://127.0.0.1:${port}`,
    port,
    ca,
    caFile,
    received,
    respond(fn) {
      responder = fn;
    },
    waitFor(predicate, timeoutMs = 20_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!predicate(received)) return;
          cleanup();
          resolve();
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`the receiver did not see what was expected within ${timeoutMs} ms (${received.length} requests)`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    down: stop,
    async up() {
      server = makeServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => resolve());
      });
    },
    close: stop,
  };
}
