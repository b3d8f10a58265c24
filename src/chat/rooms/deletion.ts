// Deleting a room (decision 2): deleted_at is set and every member row is removed in the caller's transaction,
// so every membership check answers 404 from the commit on. Messages stay; pending join requests are cancelled.
import type { SqlClient } from '../../platform/db/sql.js';
import { accountsAudience, emit } from '../events/emit.js';
import { cancelPendingRequests, deleteAllMembers, markRoomDeleted } from './queries.js';

export async function deleteRoomRows(client: SqlClient, roomId: string, by: string, at: Date): Promise<void> {
  const former = await deleteAllMembers(client, roomId);
  await markRoomDeleted(client, roomId, at);
  await cancelPendingRequests(client, roomId, by, at);
  // The room has no members any more, so the event names the former ones.
  await emit(client, 'room.deleted', { roomId, deletedBy: by }, accountsAudience(former));
}
