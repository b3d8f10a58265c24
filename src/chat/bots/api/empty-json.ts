// An empty application/json body is a call without parameters, as Telegram reads it: HTTP clients (generated ones
// among them) send the header with no body when every parameter of a method is optional. A body that is present is
// parsed as before, `__proto__` and `constructor` keys dropped.
import type { FastifyInstance, FastifyRequest } from 'fastify';

export function addEmptyJsonParser(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('remove', 'remove');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request: FastifyRequest, body: string | Buffer, done) => {
    if (body.length === 0) return done(null, undefined);
    json(request, body.toString(), done);
  });
}
