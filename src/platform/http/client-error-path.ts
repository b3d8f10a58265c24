// Errors Node's HTTP parser raises (the `clientError` event) come before any routing, so a listener that shares its
// port with another interface needs the request's path to answer in the right envelope.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How far into the raw bytes the request line is looked for. */
const requestLineLimit = 8192;

/**
 * The path of the request the error belongs to, when it can be known: the request in flight (its headers were
 * read, as for a body too slow to arrive), else the request line at the start of the bytes the parser refused (as
 * for headers too large). Undefined when the request line never arrived in full.
 */
export function clientErrorPath(socket: Socket, error: { rawPacket?: unknown }): string | undefined {
  const inFlight = (socket as Socket & { _httpMessage?: (ServerResponse & { req?: IncomingMessage }) | null })._httpMessage;
  if (typeof inFlight?.req?.url === 'string') return inFlight.req.url;
  if (!Buffer.isBuffer(error.rawPacket)) return undefined;
  const head = error.rawPacket.toString('latin1', 0, Math.min(error.rawPacket.length, requestLineLimit));
  return /^[A-Z]+ (\S+) HTTP\//.exec(head)?.[1];
}
