// Files that arrive whole in one request (the Bot API's multipart uploads) instead of through a tus session. They
// become ordinary uploads: a COMPLETE row owned by the sender, bytes in the same store, then claimed by a message
// like any session's file (attachments.ts). The row is written before the bytes and expires like an unsent
// session's, so a send that fails after it, or a crash, leaves nothing the upload cleanup does not remove.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import type { SqlPool } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import { hashToken } from './sessions.js';
import { deleteUnsentUpload, insertUpload } from './queries.js';
import type { MediaStore } from '../../core/media/store.js';
import { writeWhole } from '../../core/media/write.js';

export interface DirectUploadDeps {
  sql: SqlPool;
  clock: Clock;
  config: { uploadSessionTtlSeconds: number };
}

export interface DirectFile {
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

/** Stores the bytes as a complete, not yet sent upload of `ownerId`; returns its id. */
export async function storeDirectUpload(deps: DirectUploadDeps, store: MediaStore, ownerId: string, file: DirectFile): Promise<string> {
  const id = newId();
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + deps.config.uploadSessionTtlSeconds * 1000);
  // No client ever holds a token for this upload: the hash of random bytes only fills the unique column.
  await insertUpload(deps.sql, {
    id,
    ownerId,
    fileName: file.fileName,
    contentType: file.contentType,
    declaredSize: file.bytes.length,
    status: 'COMPLETE',
    tokenHash: hashToken(randomBytes(32).toString('base64url')),
    expiresAt,
    createdAt: now,
    complete: { size: file.bytes.length, at: now },
  });
  try {
    await writeWhole(store, id, file.bytes, file);
  } catch (err) {
    await discardDirectUpload(deps, store, id);
    throw err;
  }
  return id;
}

/** Removes an upload that no message took: its row (only while still unsent), then its bytes. */
export async function discardDirectUpload(deps: Pick<DirectUploadDeps, 'sql'>, store: MediaStore, id: string): Promise<void> {
  if (await deleteUnsentUpload(deps.sql, id)) await store.remove(id);
}

/** The first `limit` bytes of a stored file (fewer when it is shorter). */
export async function readHead(store: MediaStore, id: string, limit: number): Promise<Buffer> {
  const stream = await store.read(id);
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of stream) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      chunks.push(buffer);
      length += buffer.length;
      if (length >= limit) break;
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks).subarray(0, limit);
}
