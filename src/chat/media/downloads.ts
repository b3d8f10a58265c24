// Downloads of sent files: GET /media/files/{id} on the chat listener with the caller's bearer token. Members of a
// room where a message that is not recalled carries the file may download it; anyone else, and everyone once every
// message carrying it is recalled, gets 404 file_not_found. Files are always attachments (never rendered inline
// by a browser), whatever their type.
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { isUuid } from '../../platform/ids.js';
import { filePath } from '../base/attachment-views.js';
import type { MediaStore } from '../../core/media/store.js';
import { attachmentHeaders } from '../../core/media/attachment-headers.js';
import { readableFile } from './queries.js';

const fileNotFound = () => chatErrors.notFound('File', 'file_not_found');

/** A stored file's bytes, always as an attachment that a browser neither renders nor sniffs, never cached. */
export function sendStoredFile(
  reply: FastifyReply,
  file: { file_name: string; content_type: string; size: number },
  body: Readable,
): FastifyReply {
  return reply.headers(attachmentHeaders(file)).send(body);
}

export function mountDownloads(
  app: FastifyInstance,
  deps: ChatDeps,
  store: MediaStore,
  authenticate: (request: FastifyRequest) => Promise<Caller>,
): void {
  app.get(filePath(':id'), async (request, reply) => {
    const caller = await authenticate(request);
    const id = (request.params as { id: string }).id.toLowerCase();
    if (!isUuid(id)) throw fileNotFound();
    const file = await readableFile(deps.sql, id, caller.accountId);
    if (!file) throw fileNotFound();
    return sendStoredFile(reply, file, await store.read(id));
  });
}
