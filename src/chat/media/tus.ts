// The media service's upload endpoint: @tus/server (tus 1.0.0: creation, resumable PATCH, termination of unfinished
// uploads) mounted on the chat listener under /media/uploads, outside /api/v1. A request is let in by the
// Upload-Token its session gave, for that session's upload only and until the session expires; the session's
// declared size and type are the limits (and UPLOAD_MAX_BYTES / UPLOAD_ALLOWED_TYPES are checked again).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EVENTS, Server, type Upload } from '@tus/server';
import type { ChatDeps } from '../deps.js';
import { accountsAudience, emit } from '../events/emit.js';
import { inTransaction } from '../../platform/db/sql.js';
import { isUuid } from '../../platform/ids.js';
import type { MediaStore } from '../../core/media/store.js';
import { tokenMatches, tusPath, uploadColumns, uploadTokenHeader, hashToken, type UploadRow } from './sessions.js';
import { typeAllowed } from './types.js';

/** A refusal in tus' own form: a status and a plain-text body. */
const refuse = (status_code: number, body: string) => ({ status_code, body: `${body}\n` });

type TusRequest = { headers: Headers; method: string };

export function buildTusServer(deps: ChatDeps, datastore: Awaited<ReturnType<MediaStore['datastore']>>): Server {
  const byId = async (id: string): Promise<UploadRow | undefined> => {
    if (!isUuid(id)) return undefined;
    const { rows } = await deps.sql.query<UploadRow>(`select ${uploadColumns} from uploads where id = $1`, [id.toLowerCase()]);
    return rows[0];
  };
  const tokenOf = (req: TusRequest): string => {
    const token = req.headers.get(uploadTokenHeader);
    if (!token) throw refuse(401, `The ${uploadTokenHeader} header of the upload session is required`);
    return token;
  };
  const expired = (row: UploadRow) => row.expires_at.getTime() <= deps.clock.now().getTime();
  // The Upload-Token outlives a status change: an account deactivated or banned since its session was made may not
  // go on uploading with it (the cached status is dropped on every node when it changes).
  const ownerMayUpload = async (row: UploadRow): Promise<void> => {
    const owner = await deps.accounts.get(row.owner_id);
    if (owner?.status === 'DEACTIVATED') throw refuse(403, 'The account is deactivated');
    if (owner?.status === 'BANNED') throw refuse(403, 'The account is banned');
    if (!owner) throw refuse(404, 'No such upload');
  };

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
      const { rows } = await deps.sql.query<UploadRow>(`select ${uploadColumns} from uploads where token_hash = $1`, [hashToken(token)]);
      const row = rows[0];
      if (!row) throw refuse(401, `The ${uploadTokenHeader} names no upload session`);
      if (expired(row)) throw refuse(410, 'The upload session expired');
      if (row.status !== 'PENDING') throw refuse(409, 'The upload of this session exists already; resume it with HEAD and PATCH on its URL');
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
    onUploadCreate: async (_req, upload: Upload) => {
      const row = await byId(upload.id);
      if (!row) throw refuse(404, 'No such upload');
      if (upload.sizeIsDeferred || upload.size === undefined) throw refuse(400, 'Upload-Length is required: the session declared the size');
      if (upload.size > row.declared_size) throw refuse(413, `Upload-Length exceeds the size the session declared (${row.declared_size} bytes)`);
      const filetype = upload.metadata?.filetype ?? upload.metadata?.contentType;
      if (filetype && filetype.toLowerCase() !== row.content_type) throw refuse(415, `The file type differs from the session's (${row.content_type})`);
      if (!typeAllowed(row.content_type, deps.config.uploadAllowedTypes)) throw refuse(415, `${row.content_type} is not a type uploads may have`);
      const started = await inTransaction(deps.sql, async (client) => {
        const { rowCount } = await client.query(`update uploads set status = 'UPLOADING' where id = $1 and status = 'PENDING'`, [row.id]);
        if (rowCount !== 1) return false;
        await emit(client, 'upload.started', { uploadId: row.id, ownerId: row.owner_id, size: upload.size }, accountsAudience([row.owner_id]));
        return true;
      });
      if (!started) throw refuse(409, 'The upload of this session exists already');
      deps.queues.requestOutboxDrain();
      // The session's name and type are the file's, whatever the client's metadata said.
      return { metadata: { ...upload.metadata, filename: row.file_name, filetype: row.content_type } };
    },
    onUploadFinish: async (_req, upload: Upload) => {
      const now = deps.clock.now();
      await inTransaction(deps.sql, async (client) => {
        const { rows } = await client.query<{ owner_id: string }>(
          `update uploads set status = 'COMPLETE', size = $2, completed_at = $3 where id = $1 and status = 'UPLOADING' returning owner_id`,
          [upload.id, upload.offset, now],
        );
        if (rows[0]) {
          await emit(client, 'upload.completed', { uploadId: upload.id, ownerId: rows[0].owner_id, size: upload.offset }, accountsAudience([rows[0].owner_id]));
        }
      });
      deps.queues.requestOutboxDrain();
      return {};
    },
  });
  // A terminated (unfinished) upload can be created again under the same session.
  server.on(EVENTS.POST_TERMINATE, (_req, _res, id: string) => {
    inTransaction(deps.sql, async (client) => {
      const { rows } = await client.query<{ owner_id: string }>(
        `update uploads set status = 'PENDING' where id = $1 and status = 'UPLOADING' returning owner_id`,
        [id],
      );
      if (rows[0]) await emit(client, 'upload.terminated', { uploadId: id, ownerId: rows[0].owner_id }, accountsAudience([rows[0].owner_id]));
    })
      .then(() => deps.queues.requestOutboxDrain())
      // The row stays UPLOADING: a new creation is refused (409) until the session expires and is cleaned up.
      .catch(() => undefined);
  });
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
