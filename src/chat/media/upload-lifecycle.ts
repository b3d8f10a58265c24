// The upload session's states as tus moves an upload along: PENDING → UPLOADING on creation (the session's size and
// type are the limits), → COMPLETE when the last byte is stored (an image with its size in pixels from its header),
// back to PENDING when an unfinished upload is terminated. Each change commits with its event.
import type { Upload } from '@tus/server';
import type { MediaStore } from '../../core/media/store.js';
import type { ChatDeps } from '../base/deps.js';
import { accountsAudience, emit } from '../events/emit.js';
import { inTransaction } from '../../platform/db/sql.js';
import { readHead } from './direct-upload.js';
import { imageHeadBytes, imageSize } from './image-size.js';
import { refuse, type UploadAccess } from './upload-access.js';
import { typeAllowed } from './types.js';
import { completeUpload, reopenUpload, startUpload } from './queries.js';

const noPixels = { width: null, height: null };

/**
 * An image's size in pixels from its stored header, when its type is an image's and the header agrees with it; a
 * file that cannot be read here is kept without (it is still a file).
 */
async function pixelsOf(store: MediaStore, id: string, contentType: string | undefined) {
  if (!contentType?.startsWith('image/')) return noPixels;
  const image = imageSize(await readHead(store, id, imageHeadBytes).catch(() => Buffer.alloc(0)));
  return image && image.contentType === contentType ? { width: image.width, height: image.height } : noPixels;
}

/** Creation: checks the upload against its session and starts it; the session's name and type become the file's. */
export function onUploadCreate(deps: ChatDeps, access: UploadAccess) {
  return async (_req: unknown, upload: Upload) => {
    const row = await access.byId(upload.id);
    if (!row) throw refuse(404, 'No such upload');
    if (upload.sizeIsDeferred || upload.size === undefined) throw refuse(400, 'Upload-Length is required: the session declared the size');
    if (upload.size > row.declared_size)
      throw refuse(413, `Upload-Length exceeds the size the session declared (${row.declared_size} bytes)`);
    const filetype = upload.metadata?.filetype ?? upload.metadata?.contentType;
    if (filetype && filetype.toLowerCase() !== row.content_type)
      throw refuse(415, `The file type differs from the session's (${row.content_type})`);
    if (!typeAllowed(row.content_type, deps.config.uploadAllowedTypes))
      throw refuse(415, `${row.content_type} is not a type uploads may have`);
    const started = await inTransaction(deps.sql, async (client) => {
      if (!(await startUpload(client, row.id))) return false;
      await emit(
        client,
        'upload.started',
        { uploadId: row.id, ownerId: row.owner_id, size: upload.size },
        accountsAudience([row.owner_id]),
      );
      return true;
    });
    if (!started) throw refuse(409, 'The upload of this session exists already');
    // The session's name and type are the file's, whatever the client's metadata said.
    return { metadata: { ...upload.metadata, filename: row.file_name, filetype: row.content_type } };
  };
}

export function onUploadFinish(deps: ChatDeps, access: UploadAccess, store: MediaStore) {
  return async (_req: unknown, upload: Upload) => {
    const pixels = await pixelsOf(store, upload.id, (await access.byId(upload.id))?.content_type);
    const now = deps.clock.now();
    await inTransaction(deps.sql, async (client) => {
      const ownerId = await completeUpload(client, upload.id, { size: upload.offset, at: now, ...pixels });
      if (ownerId) {
        await emit(client, 'upload.completed', { uploadId: upload.id, ownerId, size: upload.offset }, accountsAudience([ownerId]));
      }
    });
    return {};
  };
}

/** A terminated (unfinished) upload can be created again under the same session. */
export function onUploadTerminated(deps: ChatDeps) {
  return (_req: unknown, _res: unknown, id: string) => {
    inTransaction(deps.sql, async (client) => {
      const ownerId = await reopenUpload(client, id);
      if (ownerId) await emit(client, 'upload.terminated', { uploadId: id, ownerId }, accountsAudience([ownerId]));
    })
      // The row stays UPLOADING: a new creation is refused (409) until the session expires and is cleaned up.
      .catch(() => undefined);
  };
}
