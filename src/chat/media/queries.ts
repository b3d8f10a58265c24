// The statements of upload sessions and files: a session's row as tus moves it along, a direct upload's row, the
// claim of uploads by a message and the download gate.
import { sql, type Selectable } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb, type ChatTables } from '../base/tables.js';

/** The columns the tus hooks read of an upload session. */
export const uploadColumns = [
  'id',
  'owner_id',
  'file_name',
  'content_type',
  'declared_size',
  'size',
  'status',
  'token_hash',
  'expires_at',
  'attached_at',
] as const;

export type UploadRow = Pick<Selectable<ChatTables['uploads']>, (typeof uploadColumns)[number]>;

/** A new upload row: a PENDING session, or a COMPLETE direct upload (with its size and completion time). */
export interface NewUpload {
  id: string;
  ownerId: string;
  fileName: string;
  contentType: string;
  declaredSize: number;
  status: 'PENDING' | 'COMPLETE';
  tokenHash: Buffer;
  expiresAt: Date;
  createdAt: Date;
  complete?: { size: number; at: Date };
}

export async function insertUpload(db: Runner, upload: NewUpload): Promise<void> {
  await affected(
    db,
    chatDb.insertInto('uploads').values({
      id: upload.id,
      owner_id: upload.ownerId,
      file_name: upload.fileName,
      content_type: upload.contentType,
      declared_size: upload.declaredSize,
      ...(upload.complete ? { size: upload.complete.size } : {}),
      status: upload.status,
      token_hash: upload.tokenHash,
      expires_at: upload.expiresAt,
      created_at: upload.createdAt,
      ...(upload.complete ? { completed_at: upload.complete.at } : {}),
    }),
  );
}

export async function uploadById(db: Runner, id: string): Promise<UploadRow | undefined> {
  return firstRow(db, chatDb.selectFrom('uploads').select(uploadColumns).where('id', '=', id));
}

export async function uploadByTokenHash(db: Runner, tokenHash: Buffer): Promise<UploadRow | undefined> {
  return firstRow(db, chatDb.selectFrom('uploads').select(uploadColumns).where('token_hash', '=', tokenHash));
}

/** PENDING → UPLOADING; false when the session was not PENDING. */
export async function startUpload(client: SqlClient, id: string): Promise<boolean> {
  return (
    (await affected(
      client,
      chatDb.updateTable('uploads').set({ status: 'UPLOADING' }).where('id', '=', id).where('status', '=', 'PENDING'),
    )) === 1
  );
}

/** UPLOADING → COMPLETE with the stored size and pixels; the owner when it moved. */
export async function completeUpload(
  client: SqlClient,
  id: string,
  file: { size: number; at: Date; width: number | null; height: number | null },
): Promise<string | undefined> {
  const moved = await firstRow(
    client,
    chatDb
      .updateTable('uploads')
      .set({ status: 'COMPLETE', size: file.size, completed_at: file.at, width: file.width, height: file.height })
      .where('id', '=', id)
      .where('status', '=', 'UPLOADING')
      .returning('owner_id'),
  );
  return moved?.owner_id;
}

/** UPLOADING → PENDING; the owner when it moved. */
export async function reopenUpload(client: SqlClient, id: string): Promise<string | undefined> {
  const moved = await firstRow(
    client,
    chatDb.updateTable('uploads').set({ status: 'PENDING' }).where('id', '=', id).where('status', '=', 'UPLOADING').returning('owner_id'),
  );
  return moved?.owner_id;
}

/** Deletes the upload while no message has taken it; true when it was deleted. */
export async function deleteUnsentUpload(db: Runner, id: string): Promise<boolean> {
  return (await affected(db, chatDb.deleteFrom('uploads').where('id', '=', id).where('attached_at', 'is', null))) === 1;
}

const anyId = (ids: string[]) => sql<string>`any(${ids}::uuid[])`;

/** Marks the owner's complete, unsent, unexpired uploads of `ids` as sent in the message; returns those it took. */
export async function claimUploadRows(client: SqlClient, ownerId: string, messageId: string, ids: string[], now: Date) {
  return rows(
    client,
    chatDb
      .updateTable('uploads')
      .set({ attached_at: now, message_id: messageId })
      .where('id', '=', anyId(ids))
      .where('owner_id', '=', ownerId)
      .where('status', '=', 'COMPLETE')
      .where('attached_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['id', 'file_name', 'content_type', 'size', 'width', 'height']),
  );
}

/** What makes each of these uploads unclaimable: its owner, whether it was sent, when it expires. */
export async function uploadStates(client: SqlClient, ids: string[]) {
  return rows(
    client,
    chatDb.selectFrom('uploads').select(['id', 'owner_id', 'status', 'attached_at', 'expires_at']).where('id', '=', anyId(ids)),
  );
}

/** A complete, sent, unpurged file that a message the account can read still carries. */
export async function readableFile(db: Runner, id: string, accountId: string) {
  return firstRow(
    db,
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
      .$narrowType<{ size: number }>(),
  );
}

const upload: NewUpload = {
  id: example.id,
  ownerId: example.otherId,
  fileName: example.text,
  contentType: 'image/png',
  declaredSize: 1,
  status: 'PENDING',
  tokenHash: Buffer.alloc(32),
  expiresAt: example.at,
  createdAt: example.at,
};

export const examples: QueryExamples = {
  insertUpload: (db) => insertUpload(db, upload),
  uploadById: (db) => uploadById(db, example.id),
  uploadByTokenHash: (db) => uploadByTokenHash(db, Buffer.alloc(32)),
  startUpload: (db) => startUpload(db, example.id),
  completeUpload: (db) => completeUpload(db, example.id, { size: 1, at: example.at, width: 1, height: 1 }),
  reopenUpload: (db) => reopenUpload(db, example.id),
  deleteUnsentUpload: (db) => deleteUnsentUpload(db, example.id),
  claimUploadRows: (db) => claimUploadRows(db, example.id, example.otherId, [example.id], example.at),
  uploadStates: (db) => uploadStates(db, [example.id]),
  readableFile: (db) => readableFile(db, example.id, example.otherId),
};
