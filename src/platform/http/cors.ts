// Cross-origin access for the settings console: the console page is served by the chat listener and calls the
// partner and workspace listeners from the browser, which are other origins (other ports). Only listed origins get
// CORS headers; a preflight is answered here, before any gate (it carries no credentials and must not be counted).
import type { FastifyReply, FastifyRequest } from 'fastify';

const allowedMethods = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const allowedHeaders = 'authorization, content-type, idempotency-key, x-request-id, x-api-key';
// What the SDKs read from responses: request ids for error reports, rate counters, Retry-After, Location.
const exposedHeaders = 'x-request-id, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, retry-after, location';

export function corsHook(allowedOrigins: () => readonly string[]) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    reply.header('vary', 'Origin');
    if (typeof origin !== 'string' || !allowedOrigins().includes(origin)) return;
    reply.header('access-control-allow-origin', origin);
    reply.header('access-control-expose-headers', exposedHeaders);
    if (request.method === 'OPTIONS' && typeof request.headers['access-control-request-method'] === 'string') {
      reply
        .code(204)
        .header('access-control-allow-methods', allowedMethods)
        .header('access-control-allow-headers', allowedHeaders)
        .header('access-control-max-age', '600')
        .send();
      return reply;
    }
  };
}
