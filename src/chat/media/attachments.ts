// Attachments: completed uploads of the sender carried by a message. The message row keeps a copy of each file's
// facts (messages.attachments, immutable like the file), so every read path shows them without a join; the upload
// row records the first message that sent it, and an upload is sent once.
import type { SqlClient } from '../../platform/db/sql.js';
import { chatError } from '../base/errors.js';
import type { ChatErrorCode } from '../base/error-codes.js';
import type { AppError } from '../../platform/http/app-error.js';
import type { StoredAttachment } from '../base/attachment-views.js';
import { claimUploadRows, uploadStates } from './queries.js';

export const attachmentErrors = {
  notFound: (indices: number[]) => refusal(404, 'upload_not_found', 'names no upload of the caller that is still open', indices),
  incomplete: (indices: number[]) => refusal(409, 'upload_incomplete', 'names an upload whose bytes have not all arrived', indices),
  alreadyAttached: (indices: number[]) => refusal(409, 'upload_already_attached', 'names an upload already sent in a message', indices),
  repeated: (indices: number[]) => refusal(400, 'validation_failed', 'names an upload already listed', indices),
};

function refusal(status: number, code: ChatErrorCode, why: string, indices: number[]): AppError {
  const details = indices.map((i) => ({ location: `body.attachments.${i}.uploadId`, message: why }));
  return chatError(status, code, `The message cannot be sent: ${details.map((d) => `${d.location} ${d.message}`).join('; ')}.`, details);
}

/**
 * Marks the uploads as sent in `messageId` and returns them in the order given, all or none: the caller's
 * transaction rolls back on the error thrown. The upload rows are locked, so a concurrent send of the same upload,
 * or the cleanup deleting it as expired, waits for this transaction and then finds it taken.
 */
export async function claimUploads(
  client: SqlClient,
  ownerId: string,
  messageId: string,
  uploadIds: string[],
  now: Date,
): Promise<StoredAttachment[]> {
  const ids = uploadIds.map((id) => id.toLowerCase());
  const repeated = ids.flatMap((id, i) => (ids.indexOf(id) < i ? [i] : []));
  if (repeated.length > 0) throw attachmentErrors.repeated(repeated);
  const rows = await claimUploadRows(client, ownerId, messageId, ids, now);
  if (rows.length < ids.length) {
    const states = await uploadStates(client, ids);
    const byId = new Map(states.map((s) => [s.id, s]));
    const taken = new Set(rows.map((r) => r.id));
    const missing: number[] = [];
    const incomplete: number[] = [];
    const attached: number[] = [];
    ids.forEach((id, i) => {
      if (taken.has(id)) return;
      const s = byId.get(id);
      // Another account's upload reads as no upload at all.
      if (!s || s.owner_id !== ownerId) missing.push(i);
      else if (s.attached_at !== null) attached.push(i);
      else if (s.expires_at.getTime() <= now.getTime()) missing.push(i);
      else incomplete.push(i);
    });
    if (missing.length > 0) throw attachmentErrors.notFound(missing);
    if (attached.length > 0) throw attachmentErrors.alreadyAttached(attached);
    throw attachmentErrors.incomplete(incomplete);
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => {
    const r = byId.get(id)!;
    const pixels = r.width !== null && r.height !== null ? { width: r.width, height: r.height } : {};
    return { id: r.id, fileName: r.file_name, contentType: r.content_type, size: Number(r.size), ...pixels };
  });
}
