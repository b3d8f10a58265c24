// Uploads arrive as raw bytes (application/octet-stream) with their own limit, above the JSON body limit.
import type { FastifyInstance } from 'fastify';
import { storageMaxBytes } from './files.js';

export function acceptOctetStream(app: FastifyInstance): void {
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: storageMaxBytes }, (_request, body, done) =>
    done(null, body),
  );
}
