// Downloads of sent files: GET /media/files/{id} on the chat listener with the caller's bearer token. Members of a
// room where a message that is not recalled carries the file may download it; anyone else, and everyone once every
// message carrying it is recalled, gets 404 file_not_found. Files are always attachments (never rendered inline
// by a browser), whatever their type.
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../context.js';
import type { ChatDeps } from '../deps.js';
import { chatErrors } from '../errors.js';
import { isUuid } from '../../platform/ids.js';
import { filePath } from './attachments.js';
import type { MediaStore } from '../../core/media/store.js';
import { attachmentHeaders } from '../../core/media/attachment-headers.js';

const fileNotFound = () => chatErrors.notFound('File', 'file_not_found');

const readableSql = `
  select u.file_name, u.content_type, u.size from uploads u
   where u.id = $1 and u.status = 'COMPLETE' and u.attached_at is not null and u.purged_at is null
     and exists (select 1 from messages m join room_members rm on rm.room_id = m.room_id and rm.account_id = $2
                  where m.attachments @> $3::jsonb and m.recalled_at is null)`;

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
    const { rows } = await deps.sql.query<{ file_name: string; content_type: string; size: number }>(readableSql, [
      id,
      caller.accountId,
      JSON.stringify([{ id }]),
    ]);
    const file = rows[0];
    if (!file) throw fileNotFound();
    return sendStoredFile(reply, file, await store.read(id));
  });
}
