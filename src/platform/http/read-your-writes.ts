// Read-your-writes across replicas for one listener: the handler runs knowing who the caller is (so readPool can
// route by the caller's last write), and every request that may have written records the caller's write position
// before its response leaves, so the caller's next request, on any node, reads at least that far.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from '../logger.js';
import { readCaller, type ReadRouter } from '../db/read-router.js';

const readOnlyMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Installs the hooks; without a router (no DATABASE_READ_URLS) it adds nothing and every read stays on the primary. */
export function routeReadsByCaller(
  app: FastifyInstance,
  reads: ReadRouter | undefined,
  callerOf: (request: FastifyRequest) => string | undefined,
  log: Logger,
): void {
  if (!reads) return;
  // The handler (called from done) and everything it awaits see the caller through the async context.
  app.addHook('preHandler', (request, _reply, done) =>
    readCaller.run({ caller: callerOf(request), readOnly: readOnlyMethods.has(request.method) }, done),
  );
  app.addHook('onSend', async (request, _reply, payload) => {
    if (readOnlyMethods.has(request.method)) return payload;
    const caller = callerOf(request);
    if (caller === undefined) return payload;
    // The response is already decided: a failure here must not turn a committed write into an error. The caller's
    // next read may then go to a replica that lacks the write until it catches up; the log says so.
    await reads
      .rememberWrite(caller)
      .catch((err: unknown) => log.warn({ err, caller }, 'read replicas: the write position was not recorded'));
    return payload;
  });
}
