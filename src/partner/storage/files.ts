// Stored files (attachments) of one workspace and environment: metadata rows in storage_files, bytes in the media
// store the chat's uploads use, under the same id.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { components } from '../../../generated/types/partner.js';
import type { MediaStore } from '../../core/media/store.js';
import { writeWhole } from '../../core/media/write.js';
import type { Clock } from '../../platform/clock.js';
import type { Queryable } from '../../platform/db/queryable.js';
import { newId } from '../../platform/ids.js';
import { partnerErrors } from '../errors.js';
import { afterIdOf, idPage, type ListPage } from '../paging.js';
import type { Partition } from '../partition.js';

export type StoredFile = components['schemas']['Storage.StoredFile'];

/** The largest upload: 10 MiB (documented in the spec and docs/partner.md). */
export const storageMaxBytes = 10 * 1024 * 1024;

export interface FileRow {
  id: string;
  file_name: string;
  content_type: string;
  size: number;
  sha256: string;
  created_at: Date;
}

const columns = 'id, file_name, content_type, size, sha256, created_at';

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
  constructor(private readonly clock: Clock, private readonly media: MediaStore) {}

  /** Bytes first, then the row (in the request's transaction): a failed write leaves no row, a failed row no bytes. */
  async create(db: Queryable, part: Partition, file: NewFile): Promise<StoredFile> {
    const id = newId();
    await writeWhole(this.media, id, file.bytes, file);
    try {
      const { rows } = await db.query<FileRow>(
        `insert into storage_files (id, workspace_id, environment, file_name, content_type, size, sha256, uploaded_by, created_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning ${columns}`,
        [id, part.workspaceId, part.environment, file.fileName, file.contentType, file.bytes.length, createHash('sha256').update(file.bytes).digest('hex'), file.uploadedBy, this.clock.now()],
      );
      return renderFile(rows[0]!);
    } catch (err) {
      await this.media.remove(id);
      throw err;
    }
  }

  async list(db: Queryable, part: Partition, query: { limit?: number; cursor?: string }): Promise<ListPage<StoredFile>> {
    const limit = query.limit ?? 50;
    const after = afterIdOf('storage_files', query.cursor);
    const { rows } = await db.query<FileRow>(
      `select ${columns} from storage_files where workspace_id = $1 and environment = $2 and ($3::uuid is null or id < $3) order by id desc limit $4`,
      [part.workspaceId, part.environment, after ?? null, limit + 1],
    );
    return idPage('storage_files', rows, limit, renderFile);
  }

  async row(db: Queryable, part: Partition, id: string): Promise<FileRow> {
    const { rows } = await db.query<FileRow>(`select ${columns} from storage_files where workspace_id = $1 and environment = $2 and id = $3`, [part.workspaceId, part.environment, id]);
    if (!rows[0]) throw fileNotFound();
    return { ...rows[0], size: Number(rows[0].size) };
  }

  read(id: string): Promise<Readable> {
    return this.media.read(id);
  }

  /** The row goes in the request's transaction; the bytes once it committed (see the handler). */
  async deleteRow(db: Queryable, part: Partition, id: string): Promise<void> {
    const { rowCount } = await db.query('delete from storage_files where workspace_id = $1 and environment = $2 and id = $3', [part.workspaceId, part.environment, id]);
    if (rowCount !== 1) throw fileNotFound();
  }

  removeBytes(id: string): Promise<void> {
    return this.media.remove(id);
  }
}
