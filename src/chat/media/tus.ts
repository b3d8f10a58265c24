// The media service's upload endpoint: @tus/server (tus 1.0.0: creation, resumable PATCH, termination of unfinished
// uploads) mounted on the chat listener under /media/uploads, outside /api/v1. A request is let in by the
// Upload-Token its session gave, for that session's upload only and until the session expires; the session's
// declared size and type are the limits (and UPLOAD_MAX_BYTES / UPLOAD_ALLOWED_TYPES are checked again).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EVENTS, Server } from '@tus/server';
import type { ChatDeps } from '../base/deps.js';
import type { MediaStore } from '../../core/media/store.js';
import { hashToken, tokenMatches, tusPath, uploadTokenHeader } from './sessions.js';
import { uploadByTokenHash } from './queries.js';
import { refuse, uploadAccess } from './upload-access.js';
import { onUploadCreate, onUploadFinish, onUploadTerminated } from './upload-lifecycle.js';

export function buildTusServer(deps: ChatDeps, store: MediaStore, datastore: Awaited<ReturnType<MediaStore['datastore']>>): Server {
  const access = uploadAccess(deps);
  const { byId, tokenOf, expired, ownerMayUpload } = access;
  const server = new Server({
    path: tusPath,
    datastore,
    respectForwardedHeaders: false,
    generateUrl: (_req, { proto, host, path, id }) => `${deps.config.mediaPublicUrl ?? `${proto}://${host}`}${path}/${id}`,
    disableTerminationForFinishedUploads: true,
    allowedHeaders: [uploadTokenHeader],
    // The declared size bounds each upload; OPTIONS (no upload) advertises the configured maximum.
    maxSize: async (_req, id) => (id === null ? deps.config.uploadMaxBytes : Math.max(1, (await byId(id))?.declared_size ?? 1)),
    // The upload's id is its session's: creation names the session by its token.
    namingFunction: async (req) => {
      const token = tokenOf(req);
      const row = await uploadByTokenHash(deps.sql, hashToken(token));
      if (!row) throw refuse(401, `The ${uploadTokenHeader} names no upload session`);
      if (expired(row)) throw refuse(410, 'The upload session expired');
      if (row.status !== 'PENDING')
        throw refuse(409, 'The upload of this session exists already; resume it with HEAD and PATCH on its URL');
      await ownerMayUpload(row);
      return row.id;
    },
    onIncomingRequest: async (req, id) => {
      const token = tokenOf(req);
      const row = await byId(id);
      // Someone else's upload reads as none.
      if (!row || !tokenMatches(token, row.token_hash)) throw refuse(404, 'No such upload');
      if (expired(row) && row.status !== 'COMPLETE') throw refuse(410, 'The upload session expired');
      await ownerMayUpload(row);
    },
    onUploadCreate: onUploadCreate(deps, access),
    onUploadFinish: onUploadFinish(deps, access, store),
  });
  server.on(EVENTS.POST_TERMINATE, onUploadTerminated(deps));
  return server;
}

/** Routes the tus methods to the server; bodies stream straight into the store (Fastify does not read them). */
export async function mountTus(app: FastifyInstance, server: () => Promise<Server>): Promise<void> {
  await app.register(async (scope) => {
    scope.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const tus = await server();
      reply.hijack();
      reply.raw.setHeader('x-request-id', request.id);
      await tus.handle(request.raw, reply.raw);
    };
    scope.route({ method: ['POST', 'OPTIONS'], url: tusPath, handler });
    scope.route({ method: ['HEAD', 'PATCH', 'DELETE', 'OPTIONS'], url: `${tusPath}/:id`, handler });
  });
}
