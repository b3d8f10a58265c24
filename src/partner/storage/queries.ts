// The statements of stored files: one workspace and environment's metadata rows in storage_files.
import type { Selectable } from 'kysely';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { afterIdPage } from '../base/paging-queries.js';
import type { Partition } from '../base/partition.js';
import { partnerDb, type PartnerTables } from '../base/tables.js';

const columns = ['id', 'file_name', 'content_type', 'size', 'sha256', 'created_at'] as const;

export type FileRow = Pick<Selectable<PartnerTables['storage_files']>, (typeof columns)[number]>;

/** The partition's files: every read of the store starts here. */
const inPartition = (part: Partition) =>
  partnerDb.selectFrom('storage_files').where('workspace_id', '=', part.workspaceId).where('environment', '=', part.environment);

export interface NewFileRow {
  id: string;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
  uploadedBy: string;
  at: Date;
}

export async function insertFile(db: Runner, part: Partition, file: NewFileRow): Promise<FileRow> {
  const [row] = await rows(
    db,
    partnerDb
      .insertInto('storage_files')
      .values({
        id: file.id,
        workspace_id: part.workspaceId,
        environment: part.environment,
        file_name: file.fileName,
        content_type: file.contentType,
        size: file.size,
        sha256: file.sha256,
        uploaded_by: file.uploadedBy,
        created_at: file.at,
      })
      .returning(columns),
  );
  return row!;
}

/** A page of the partition's files after an id, newest first. */
export function filePage(db: Runner, part: Partition, afterId: string | undefined, limit: number): Promise<FileRow[]> {
  return rows(db, afterIdPage(inPartition(part).select(columns), afterId, limit));
}

export function fileById(db: Runner, part: Partition, id: string): Promise<FileRow | undefined> {
  return firstRow(db, inPartition(part).select(columns).where('id', '=', id));
}

/** How many rows were deleted (0 or 1). */
export function deleteFile(db: Runner, part: Partition, id: string): Promise<number> {
  return affected(
    db,
    partnerDb
      .deleteFrom('storage_files')
      .where('workspace_id', '=', part.workspaceId)
      .where('environment', '=', part.environment)
      .where('id', '=', id),
  );
}

const part: Partition = { workspaceId: example.id, environment: 'live' };

export const examples: QueryExamples = {
  insertFile: (db) =>
    insertFile(db, part, {
      id: example.otherId,
      fileName: 'a.pdf',
      contentType: 'application/pdf',
      size: 4,
      sha256: example.text,
      uploadedBy: example.id,
      at: example.at,
    }),
  filePage: (db) => filePage(db, part, example.otherId, 51),
  fileById: (db) => fileById(db, part, example.otherId),
  deleteFile: (db) => deleteFile(db, part, example.otherId),
};
