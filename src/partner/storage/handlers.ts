// The storage operations under /api/v1/storage/files: upload, list, metadata, content and deletion of a
// workspace's files. The seed's scope catalogue names no storage scope, so any valid key of the workspace may call
// them (the gate still checks key, surface and plan); files never cross workspaces or environments.
import type { MediaStore } from '../../core/media/store.js';
import { keyOf, whenCommitted } from '../base/context.js';
import type { PartnerDeps } from '../base/deps.js';
import { partnerErrors } from '../base/errors.js';
import type { PartnerFeatureHandlers } from '../base/handler-types.js';
import { partitionOf } from '../base/partition.js';
import { attachmentHeaders } from '../../core/media/attachment-headers.js';
import { FileStore, filePath, renderFile } from './files.js';

export type StorageOperationId =
  'uploadStorageFile' | 'listStorageFiles' | 'getStorageFile' | 'getStorageFileContent' | 'deleteStorageFile';

export function storageHandlers(deps: PartnerDeps, media: MediaStore | undefined): PartnerFeatureHandlers<StorageOperationId> {
  const files = () => {
    // The composition root always passes the store; a listener built without one has no storage to offer.
    if (!media) throw partnerErrors.notFound('not_found', 'Storage on this listener');
    return new FileStore(deps.clock, media);
  };
  return {
    async uploadStorageFile({ query, body }, ctx) {
      // The JSON parser also answers this route (the spec declares bytes only); a JSON body is no file.
      if (!Buffer.isBuffer(body)) throw partnerErrors.unsupportedMediaType('application/octet-stream');
      const file = await files().create(ctx.db, partitionOf(ctx), {
        fileName: query.file_name,
        contentType: query.content_type ?? 'application/octet-stream',
        bytes: body,
        uploadedBy: keyOf(ctx).keyId,
      });
      return { status: 201, body: file, location: filePath(file.id) };
    },
    async listStorageFiles({ query }, ctx) {
      return { status: 200, body: await files().list(ctx.db, partitionOf(ctx), query ?? {}) };
    },
    async getStorageFile({ params }, ctx) {
      return { status: 200, body: renderFile(await files().row(ctx.db, partitionOf(ctx), params.id)) };
    },
    async getStorageFileContent({ params }, ctx) {
      const store = files();
      const row = await store.row(ctx.db, partitionOf(ctx), params.id);
      return { status: 200, body: await store.read(row.id), headers: attachmentHeaders(row) };
    },
    async deleteStorageFile({ params }, ctx) {
      const store = files();
      await store.deleteRow(ctx.db, partitionOf(ctx), params.id);
      await whenCommitted(ctx, () => store.removeBytes(params.id));
      return { status: 200, body: { object: 'storage.file', id: params.id, deleted: true } };
    },
  };
}
