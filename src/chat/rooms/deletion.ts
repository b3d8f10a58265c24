// Deleting a room (decision 2): deleted_at is set and every member row is removed in the caller's transaction,
// so every membership check answers 404 from the commit on. Messages stay; pending join requests are cancelled.
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, rows } from '../../platform/db/typed.js';
import { chatDb } from '../base/tables.js';
import { accountsAudience, emit } from '../events/emit.js';

export async function deleteRoomRows(client: SqlClient, roomId: string, by: string, at: Date): Promise<void> {
  const former = await rows(client, chatDb.deleteFrom('room_members').where('room_id', '=', roomId).returning('account_id'));
  await affected(client, chatDb.updateTable('rooms').set({ deleted_at: at, member_count: 0 }).where('id', '=', roomId));
  await affected(
    client,
    chatDb
      .updateTable('join_requests')
      .set({ status: 'CANCELLED', resolved_at: at, resolved_by: by })
      .where('room_id', '=', roomId)
      .where('status', '=', 'PENDING'),
  );
  // The room has no members any more, so the event names the former ones.
  await emit(client, 'room.deleted', { roomId, deletedBy: by }, accountsAudience(former.map((r) => r.account_id)));
}
