// Errors Node's HTTP parser raises (the `clientError` event) come before any routing, so a listener that shares its
// port with another interface needs the request's path to answer in the right envelope.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How far into the raw bytes the request line is looked for. */
const requestLineLimit = 8192;

/** The first bytes of the request whose headers are still arriving, kept on its socket. */
const pendingHead = Symbol('pendingHead');

type WatchedSocket = Socket & {
  _httpMessage?: (ServerResponse & { req?: IncomingMessage }) | null;
  [pendingHead]?: Buffer | undefined;
};

/**
 * Keeps, on each socket of the server, the bytes of a request whose headers have not all arrived: a headers time-out
 * carries no bytes of its own, and the parser keeps the request line to itself until the headers end. Listening
 * for the socket's data makes Node hand the bytes to the parser from JavaScript instead of natively, a small cost
 * paid only by a listener that shares its port with another interface.
 */
export function keepPendingRequestHeads(server: Server): void {
  server.on('connection', (socket: WatchedSocket) => {
    socket.on('data', (chunk: Buffer) => {
      // Node's own data listener ran first: a request whose headers are complete is in flight by now.
      if (socket._httpMessage) socket[pendingHead] = undefined;
      else if (!socket[pendingHead]) socket[pendingHead] = chunk;
      else if (socket[pendingHead].length < requestLineLimit) socket[pendingHead] = Buffer.concat([socket[pendingHead], chunk]);
    });
  });
}

/**
 * The path of the request the error belongs to, when it can be known: the request in flight (its headers were
 * read, as for a body too slow to arrive), else the request line at the start of the bytes the parser refused (as
 * for headers too large) or of the bytes of headers that stalled. Undefined when the request line never arrived in
 * full.
 */
export function clientErrorPath(socket: Socket, error: { rawPacket?: unknown }): string | undefined {
  const watched = socket as WatchedSocket;
  const inFlight = watched._httpMessage;
  if (typeof inFlight?.req?.url === 'string') return inFlight.req.url;
  const bytes = Buffer.isBuffer(error.rawPacket) ? error.rawPacket : watched[pendingHead];
  if (!bytes) return undefined;
  const head = bytes.toString('latin1', 0, Math.min(bytes.length, requestLineLimit));
  return /^[A-Z]+ (\S+) HTTP\//.exec(head)?.[1];
}
