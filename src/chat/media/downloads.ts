// Downloads of sent files: GET /media/files/{id} on the chat listener with the caller's bearer token. Members of a
// room where a message that is not recalled carries the file may download it; anyone else, and everyone once every
// message carrying it is recalled, gets 404 file_not_found. Files are always attachments (never rendered inline
// by a browser), whatever their type.
import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { firstRow } from '../../platform/db/typed.js';
import { isUuid } from '../../platform/ids.js';
import { chatDb } from '../base/tables.js';
import { filePath } from '../base/attachment-views.js';
import type { MediaStore } from '../../core/media/store.js';
import { attachmentHeaders } from '../../core/media/attachment-headers.js';

const fileNotFound = () => chatErrors.notFound('File', 'file_not_found');

/** A complete, sent, unpurged file that a message the account can read still carries. */
const readable = (id: string, accountId: string) =>
  chatDb
    .selectFrom('uploads as u')
    .select(['u.file_name', 'u.content_type', 'u.size'])
    .where('u.id', '=', id)
    .where('u.status', '=', 'COMPLETE')
    .where('u.attached_at', 'is not', null)
    .where('u.purged_at', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('messages as m')
          .innerJoin('room_members as rm', (join) => join.onRef('rm.room_id', '=', 'm.room_id').on('rm.account_id', '=', accountId))
          .select(sql<number>`1`.as('one'))
          .where(sql<boolean>`m.attachments @> ${JSON.stringify([{ id }])}::jsonb`)
          .where('m.recalled_at', 'is', null),
      ),
    )
    // A COMPLETE upload has its size.
    .$narrowType<{ size: number }>();

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
    const file = await firstRow(deps.sql, readable(id, caller.accountId));
    if (!file) throw fileNotFound();
    return sendStoredFile(reply, file, await store.read(id));
  });
}
