// Deleting messages for good, for the retention job and an account's erasure alike. One call is one short
// transaction over at most `expungeBatch` messages: it takes no lock a send waits on except the row of a room whose
// banner is among them (taken first, in the order a send takes its locks). The media store is touched only after
// the commit, so no row ever names bytes that are gone; a crash in between leaves unreachable bytes, never a broken row.
import type { Clock } from '../../platform/clock.js';
import { inTransaction, type SqlPool } from '../../platform/db/sql.js';
import type { MediaStore } from '../../core/media/store.js';
import { emit, roomAudience } from '../events/emit.js';
import { clearBanners, deleteMessages, purgeUncarried, recountThreads, roomsOf } from './queries.js';

/** Messages one call deletes at most. */
export const expungeBatch = 500;

export interface ExpungeDeps {
  sql: SqlPool;
  media: Pick<MediaStore, 'remove'>;
  clock: Clock;
}

export type ExpiryReason = 'retention' | 'erasure';

/** The ids of the uploads a message's attachments name ([{ id, ... }]). */
function uploadIdsOf(attachments: unknown): string[] {
  if (!Array.isArray(attachments)) return [];
  return attachments.flatMap((a: unknown) => {
    const id = (a as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? [id] : [];
  });
}

/** Per room, the deleted ids in a stable order. */
function byRoom(deleted: ReadonlyArray<{ id: string; room_id: string }>): Map<string, string[]> {
  const rooms = new Map<string, string[]>();
  for (const row of deleted) rooms.set(row.room_id, [...(rooms.get(row.room_id) ?? []), row.id]);
  for (const ids of rooms.values()) ids.sort();
  return rooms;
}

/**
 * Deletes these messages (at most 500 per call) and everything hanging off them, in one short transaction,
 * corrects the counts, emits one `message.expired` per room with the reason, and after the commit removes their
 * attachments' bytes from the media store. Returns how many were deleted. Ids already gone are skipped.
 */
export async function expungeMessages(deps: ExpungeDeps, messageIds: readonly string[], reason: ExpiryReason): Promise<number> {
  if (messageIds.length > expungeBatch) throw new RangeError(`at most ${expungeBatch} messages per call`);
  const ids = [...new Set(messageIds.map((id) => id.toLowerCase()))];
  if (ids.length === 0) return 0;
  const { deleted, purged } = await inTransaction(deps.sql, async (client) => {
    const rooms = await roomsOf(client, ids);
    if (rooms.length === 0) return { deleted: [], purged: [] };
    await clearBanners(client, rooms, ids);
    const deleted = await deleteMessages(client, ids);
    const gone = new Set(deleted.map((r) => r.id));
    const roots = [...new Set(deleted.flatMap((r) => (r.thread_root_id && !gone.has(r.thread_root_id) ? [r.thread_root_id] : [])))];
    if (roots.length > 0) await recountThreads(client, roots);
    const uploads = [...new Set(deleted.flatMap((r) => uploadIdsOf(r.attachments)))];
    const purged = uploads.length > 0 ? await purgeUncarried(client, uploads, deps.clock.now()) : [];
    for (const [roomId, messageIds] of byRoom(deleted)) {
      await emit(client, 'message.expired', { roomId, messageIds, reason }, roomAudience(roomId));
    }
    return { deleted, purged };
  });
  for (const id of purged) await deps.media.remove(id);
  return deleted.length;
}
