// The listener's own HTTP server and its answers on the bare socket, for what happens before Fastify has a request.
import { createServer, STATUS_CODES, type IncomingMessage, type ServerOptions, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AppError } from './app-error.js';
import type { ErrorRendering } from './listener-options.js';

/** A server that hands some requests (divert answers true) to another handler before Fastify sees them. */
export function divertingServer(
  divert: (req: IncomingMessage, res: ServerResponse) => boolean,
  http: ServerOptions,
  keepAliveTimeout: number,
) {
  return (handler: (req: IncomingMessage, res: ServerResponse) => void) => {
    const server = createServer(http, (req, res) => {
      if (!divert(req, res)) handler(req, res);
    });
    server.keepAliveTimeout = keepAliveTimeout;
    return server;
  };
}

/** The id of the request a response belongs to, kept on the raw response for errors raised on its socket. */
export const rawRequestId = Symbol('requestId');

/**
 * Answers on the bare socket, for errors Node raises before Fastify has a request (or while a request's body is
 * still arriving): the interface's envelope and the request id as on any other response, then the connection closes.
 */
export function writeSocketError(socket: Socket, error: AppError, id: string, rendered: ErrorRendering, headerName: string): void {
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const body = JSON.stringify(rendered.body);
    const headers: Record<string, string> = {
      ...error.headers,
      ...rendered.headers,
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      [headerName]: id,
      connection: 'close',
    };
    const head = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\n${head}\r\n${body}`);
  }
  socket.destroy();
}
