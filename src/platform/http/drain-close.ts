// The listener's part of the drain: once close() begins, responses end their keep-alive connection
// (Connection: close) and idle connections are closed, so the close waits for in-flight requests only, not for
// idle clients' keep-alive timeout.
import type { FastifyInstance } from 'fastify';

export function closeConnectionsOnDrain(app: FastifyInstance): void {
  let closing = false;
  let reaper: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    closing = true;
    reaper = setInterval(() => app.server.closeIdleConnections?.(), 200).unref();
  });
  app.addHook('onClose', async () => clearInterval(reaper));
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
}
