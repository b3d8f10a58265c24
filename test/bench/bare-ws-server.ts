// The sockets benchmark's baseline (test/bench/sockets.ts): a bare `ws` server with no STOMP, no authentication and
// no Redis, run as BARE_WS_WORKERS processes behind one port (node:cluster), as the chat node runs as WORKERS. Its
// resident memory per open connection and the time it takes to write one frame to many connections are the floor
// that the chat node's figures are read against. The forked process is the primary: it relays each command of the
// benchmark to every worker and answers once with their sum.
import cluster, { type Worker } from 'node:cluster';
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

export type BareCommand = { type: 'rss' } | { type: 'broadcast'; body: string; limit?: number };
export type BareReply =
  { type: 'listening'; port: number } | { type: 'rss'; rss: number; clients: number } | { type: 'sent'; clients: number };

const workerCount = Math.max(1, Number(process.env.BARE_WS_WORKERS ?? 1));

if (cluster.isPrimary) runPrimary();
else runWorker();

function runPrimary(): void {
  const workers: Worker[] = [];
  let listening = 0;
  cluster.on('listening', (_worker, address) => {
    if (++listening === workerCount) process.send!({ type: 'listening', port: address.port } satisfies BareReply);
  });
  for (let i = 0; i < workerCount; i++) workers.push(cluster.fork());
  const ask = (worker: Worker, command: BareCommand) =>
    new Promise<BareReply>((resolve) => {
      worker.once('message', resolve);
      worker.send(command);
    });
  process.on('message', async (command: BareCommand) => {
    // Each worker writes to its share of `limit` connections, so that together they reach exactly `limit`.
    const forWorker = (i: number): BareCommand =>
      command.type === 'broadcast' && command.limit !== undefined
        ? { ...command, limit: Math.floor(command.limit / workerCount) + (i < command.limit % workerCount ? 1 : 0) }
        : command;
    const replies = await Promise.all(workers.map((w, i) => ask(w, forWorker(i))));
    const clients = replies.reduce((n, r) => n + ('clients' in r ? r.clients : 0), 0);
    if (command.type === 'rss') {
      const rss = replies.reduce((n, r) => n + (r.type === 'rss' ? r.rss : 0), 0);
      process.send!({ type: 'rss', rss, clients } satisfies BareReply);
    } else {
      process.send!({ type: 'sent', clients } satisfies BareReply);
    }
  });
}

function runWorker(): void {
  const server = createServer();
  const wss = new WebSocketServer({ server, perMessageDeflate: false });
  // Port 0 in a cluster: every worker gets the same port, and the primary deals the connections among them.
  server.listen(0, '127.0.0.1');
  process.on('message', (command: BareCommand) => {
    if (command.type === 'rss') {
      process.send!({ type: 'rss', rss: process.memoryUsage.rss(), clients: wss.clients.size } satisfies BareReply);
      return;
    }
    // The body carries the time of this write as createdAt, as an event carries its commit time.
    const body = command.body.replace('"createdAt":""', `"createdAt":"${new Date().toISOString()}"`);
    let sent = 0;
    for (const client of wss.clients) {
      if (command.limit !== undefined && sent >= command.limit) break;
      client.send(body);
      sent++;
    }
    process.send!({ type: 'sent', clients: sent } satisfies BareReply);
  });
}
