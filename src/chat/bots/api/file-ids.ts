// The Bot API's names for a file (docs/adr/0097-bot-api-files.md). file_id is "F" and the 16 bytes of the upload's
// uuid in base64url (23 characters): opaque to bots, stable, the same for every bot. It grants nothing by itself:
// every use checks that the presenting bot can see the file. file_unique_id is "U" and 16 base64url characters of
// a SHA-256 of the uuid, so it names the file without being usable to fetch or send it. file_path is
// "files/<file_id>".
import { createHash } from 'node:crypto';

const fileIdPattern = /^F([A-Za-z0-9_-]{22})$/;

export function fileIdOf(uploadId: string): string {
  return `F${Buffer.from(uploadId.replace(/-/g, ''), 'hex').toString('base64url')}`;
}

export function fileUniqueIdOf(uploadId: string): string {
  return `U${createHash('sha256').update(`file:${uploadId}`).digest('base64url').slice(0, 16)}`;
}

/** The upload a file_id names, or null when it is no file_id. */
export function uploadOfFileId(fileId: string): string | null {
  const match = fileIdPattern.exec(fileId);
  if (!match) return null;
  const bytes = Buffer.from(match[1]!, 'base64url');
  if (bytes.length !== 16 || bytes.toString('base64url') !== match[1]) return null;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const filePathPrefix = 'files/';

export const filePathOf = (uploadId: string): string => `${filePathPrefix}${fileIdOf(uploadId)}`;
