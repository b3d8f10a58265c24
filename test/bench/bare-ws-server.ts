// The sockets benchmark's baseline (test/bench/sockets.ts): a bare `ws` server in a process of its own, with no
// STOMP, no authentication and no Redis. Its resident memory per open connection and the time it takes to write one
// frame to every connection are the floor that the chat node's figures are read against.
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

export type BareCommand = { type: 'rss' } | { type: 'broadcast'; body: string };
export type BareReply =
  { type: 'listening'; port: number } | { type: 'rss'; rss: number; clients: number } | { type: 'sent'; clients: number };

const server = createServer();
const wss = new WebSocketServer({ server, perMessageDeflate: false });

server.listen(0, '127.0.0.1', () => {
  process.send!({ type: 'listening', port: (server.address() as { port: number }).port } satisfies BareReply);
});

process.on('message', (command: BareCommand) => {
  if (command.type === 'rss') {
    process.send!({ type: 'rss', rss: process.memoryUsage.rss(), clients: wss.clients.size } satisfies BareReply);
    return;
  }
  // The body carries the time of this write as createdAt, as an event carries its commit time.
  const body = command.body.replace('"createdAt":""', `"createdAt":"${new Date().toISOString()}"`);
  for (const client of wss.clients) client.send(body);
  process.send!({ type: 'sent', clients: wss.clients.size } satisfies BareReply);
});
