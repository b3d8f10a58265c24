// The HTTPS receiver of the webhook benchmark, in a worker thread of its own (its own event loop, so it does not
// share the platform's): it answers /ok with 200, fails the first attempts of /retry with 500, and records when each
// request arrived (epoch milliseconds with sub-millisecond precision).
import { createServer } from 'node:https';
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';

interface Arrival {
  path: string;
  deliveryId: string;
  eventId: string;
  attempt: number;
  at: number;
}

const { keyPem, certPem, failAttempts } = workerData as { keyPem: string; certPem: string; failAttempts: number };
const arrivals: Arrival[] = [];
/** 2xx answers per path since the last take. */
const answered = new Map<string, number>();
const eventIdPattern = /^\{"id":"([^"]+)"/;

const server = createServer({ key: keyPem, cert: certPem, keepAliveTimeout: 60_000 }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = performance.timeOrigin + performance.now();
    const path = req.url ?? '';
    const attempt = Number(req.headers['x-svc-attempt']);
    if (req.headers['x-svc-event'] !== 'ping') {
      arrivals.push({
        path,
        deliveryId: String(req.headers['x-svc-delivery']),
        eventId: eventIdPattern.exec(Buffer.concat(chunks).toString())?.[1] ?? '',
        attempt,
        at,
      });
    }
    const fail = path === '/retry' && req.headers['x-svc-event'] !== 'ping' && attempt <= failAttempts;
    if (!fail && req.headers['x-svc-event'] !== 'ping') answered.set(path, (answered.get(path) ?? 0) + 1);
    res.writeHead(fail ? 500 : 200).end(fail ? 'later' : 'ok');
  });
});

server.listen(0, '127.0.0.1', () => parentPort!.postMessage({ type: 'ready', port: (server.address() as { port: number }).port }));
parentPort!.on('message', (message: { type: string }) => {
  if (message.type === 'take') {
    answered.clear();
    parentPort!.postMessage({ type: 'arrivals', arrivals: arrivals.splice(0) });
  } else if (message.type === 'answered') {
    parentPort!.postMessage({ type: 'answered', answered: Object.fromEntries(answered) });
  } else if (message.type === 'close') {
    server.closeAllConnections();
    server.close(() => parentPort!.postMessage({ type: 'closed' }));
  }
});
