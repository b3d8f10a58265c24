// Who may touch an upload through tus: the holder of its session's Upload-Token, while the session lasts and the
// owner's account may still upload. Refusals are in tus' own form (a status and a plain-text body).
import type { ChatDeps } from '../base/deps.js';
import { isUuid } from '../../platform/ids.js';
import { uploadTokenHeader } from './sessions.js';
import { uploadById, type UploadRow } from './queries.js';

/** A refusal in tus' own form: a status and a plain-text body. */
export const refuse = (status_code: number, body: string) => ({ status_code, body: `${body}\n` });

export type TusRequest = { headers: Headers; method: string };

export interface UploadAccess {
  /** The upload session of an upload id; undefined for an id that is not one. */
  byId(id: string): Promise<UploadRow | undefined>;
  /** The request's Upload-Token; refuses with 401 without one. */
  tokenOf(req: TusRequest): string;
  expired(row: UploadRow): boolean;
  /** Refuses when the session's owner may no longer upload. */
  ownerMayUpload(row: UploadRow): Promise<void>;
}

export function uploadAccess(deps: ChatDeps): UploadAccess {
  return {
    async byId(id) {
      if (!isUuid(id)) return undefined;
      return uploadById(deps.sql, id.toLowerCase());
    },
    tokenOf(req) {
      const token = req.headers.get(uploadTokenHeader);
      if (!token) throw refuse(401, `The ${uploadTokenHeader} header of the upload session is required`);
      return token;
    },
    expired: (row) => row.expires_at.getTime() <= deps.clock.now().getTime(),
    // The Upload-Token outlives a status change: an account deactivated or banned since its session was made may not
    // go on uploading with it (the cached status is dropped on every node when it changes).
    async ownerMayUpload(row) {
      const owner = await deps.accounts.get(row.owner_id);
      if (owner?.status === 'DEACTIVATED') throw refuse(403, 'The account is deactivated');
      if (owner?.status === 'BANNED') throw refuse(403, 'The account is banned');
      if (!owner) throw refuse(404, 'No such upload');
    },
  };
}
