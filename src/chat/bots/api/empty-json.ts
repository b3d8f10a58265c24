// An empty application/json body is a call without parameters (`{}`), as Telegram reads it: HTTP clients (generated
// ones among them) send the header with no body when every parameter of a method is optional; a method with required
// parameters then names the missing ones. A body that is present is parsed as before, `__proto__` and `constructor`
// keys dropped.
import type { FastifyInstance, FastifyRequest } from 'fastify';

export function addEmptyJsonParser(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('remove', 'remove');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request: FastifyRequest, body: string | Buffer, done) => {
    if (body.length === 0) return done(null, {});
    // The default parser answers through done (its declared type also allows a promise).
    void json(request, body.toString(), done);
  });
}
