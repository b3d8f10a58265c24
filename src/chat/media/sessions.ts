// Upload sessions: a row per file a user is about to send, with the limits checked up front and a random upload
// token that alone lets a client talk to the media service about that one upload until the session expires.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Caller } from '../base/context.js';
import type { ChatDeps } from '../base/deps.js';
import { chatErrors } from '../base/errors.js';
import { accountsAudience, emit } from '../events/emit.js';
import { inTransaction } from '../../platform/db/sql.js';
import { newId } from '../../platform/ids.js';
import { insertUpload } from './queries.js';
import { typeAllowed } from './types.js';

/** The header carrying the upload token on every tus request. */
export const uploadTokenHeader = 'Upload-Token';
/** Where the tus server is mounted on the chat listener. */
export const tusPath = '/media/uploads';

export interface CreateSessionInput {
  fileName: string;
  contentType: string;
  size: number;
}

export interface UploadSessionView {
  uploadId: string;
  uploadUrl: string;
  protocol: 'tus/1.0.0';
  headers: Record<string, string>;
  maxSize: number;
  expiresAt: string;
  fileName: string;
  contentType: string;
  size: number;
}

export type UploadStatus = 'PENDING' | 'UPLOADING' | 'COMPLETE';

export const hashToken = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

export function tokenMatches(token: string, hash: Uint8Array): boolean {
  const candidate = hashToken(token);
  return candidate.length === hash.length && timingSafeEqual(candidate, hash);
}

export class UploadService {
  constructor(private readonly deps: ChatDeps) {}

  /** `origin`: the public base URL of the media service as the client reached it (MEDIA_PUBLIC_URL wins). */
  async createSession(caller: Caller, input: CreateSessionInput, origin: string): Promise<UploadSessionView> {
    const { uploadMaxBytes, uploadAllowedTypes, uploadSessionTtlSeconds, mediaPublicUrl } = this.deps.config;
    const fileName = input.fileName.trim();
    const contentType = input.contentType.toLowerCase();
    if (input.size > uploadMaxBytes) throw chatErrors.invalid('body.size', `exceeds the largest upload allowed (${uploadMaxBytes} bytes)`);
    if (!typeAllowed(contentType, uploadAllowedTypes)) {
      throw chatErrors.invalid('body.contentType', `is not a type uploads may have (${uploadAllowedTypes.join(', ')})`);
    }
    const token = `upt_${randomBytes(32).toString('base64url')}`;
    const id = newId();
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + uploadSessionTtlSeconds * 1000);
    await inTransaction(this.deps.sql, async (client) => {
      await insertUpload(client, {
        id,
        ownerId: caller.accountId,
        fileName,
        contentType,
        declaredSize: input.size,
        status: 'PENDING',
        tokenHash: hashToken(token),
        expiresAt,
        createdAt: now,
      });
      await emit(
        client,
        'upload.created',
        { uploadId: id, ownerId: caller.accountId, fileName, contentType, size: input.size, expiresAt: expiresAt.toISOString() },
        accountsAudience([caller.accountId]),
      );
    });
    return {
      uploadId: id,
      uploadUrl: `${mediaPublicUrl ?? origin}${tusPath}`,
      protocol: 'tus/1.0.0',
      headers: { [uploadTokenHeader]: token, 'Tus-Resumable': '1.0.0' },
      maxSize: input.size,
      expiresAt: expiresAt.toISOString(),
      fileName,
      contentType,
      size: input.size,
    };
  }
}
