// Stored files (attachments) of one workspace and environment: metadata rows in storage_files, bytes in the media
// store the chat's uploads use, under the same id.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { components } from '../../../generated/types/partner.js';
import type { MediaStore } from '../../core/media/store.js';
import { writeWhole } from '../../core/media/write.js';
import type { Clock } from '../../platform/clock.js';
import type { Runner } from '../../platform/db/typed.js';
import { newId } from '../../platform/ids.js';
import { partnerErrors } from '../base/errors.js';
import { idList, listIn, type ListPage, type ListQuery } from '../base/paging.js';
import type { Partition } from '../base/partition.js';
import { deleteFile, fileById, filePage, insertFile, type FileRow } from './queries.js';

export type StoredFile = components['schemas']['Storage.StoredFile'];

/** The largest upload: 10 MiB (documented in the spec and docs/partner.md). */
export const storageMaxBytes = 10 * 1024 * 1024;

export const fileNotFound = () => partnerErrors.notFound('file_not_found', 'The file');

export const filePath = (id: string) => `/api/v1/storage/files/${id}`;

export function renderFile(row: FileRow): StoredFile {
  return {
    object: 'storage.file',
    id: row.id,
    file_name: row.file_name,
    content_type: row.content_type,
    size: Number(row.size),
    sha256: row.sha256,
    content_url: `${filePath(row.id)}/content`,
    created_at: row.created_at.toISOString(),
  };
}

export interface NewFile {
  fileName: string;
  contentType: string;
  bytes: Buffer;
  uploadedBy: string;
}

export class FileStore {
  constructor(
    private readonly clock: Clock,
    private readonly media: MediaStore,
  ) {}

  /** Bytes first, then the row (in the request's transaction): a failed write leaves no row, a failed row no bytes. */
  async create(db: Runner, part: Partition, file: NewFile): Promise<StoredFile> {
    const id = newId();
    await writeWhole(this.media, id, file.bytes, file);
    try {
      const row = await insertFile(db, part, {
        id,
        fileName: file.fileName,
        contentType: file.contentType,
        size: file.bytes.length,
        sha256: createHash('sha256').update(file.bytes).digest('hex'),
        uploadedBy: file.uploadedBy,
        at: this.clock.now(),
      });
      return renderFile(row);
    } catch (err) {
      await this.media.remove(id);
      throw err;
    }
  }

  list(db: Runner, part: Partition, query: ListQuery): Promise<ListPage<StoredFile>> {
    return idList(listIn(part, 'storage_files'), query, (after, limit) => filePage(db, part, after, limit), renderFile);
  }

  async row(db: Runner, part: Partition, id: string): Promise<FileRow> {
    const row = await fileById(db, part, id);
    if (!row) throw fileNotFound();
    return row;
  }

  read(id: string): Promise<Readable> {
    return this.media.read(id);
  }

  /** The row goes in the request's transaction; the bytes once it committed (see the handler). */
  async deleteRow(db: Runner, part: Partition, id: string): Promise<void> {
    if ((await deleteFile(db, part, id)) !== 1) throw fileNotFound();
  }

  removeBytes(id: string): Promise<void> {
    return this.media.remove(id);
  }
}
