// Deleting a room (decision 2): deleted_at is set and every member row is removed in the caller's transaction,
// so every membership check answers 404 from the commit on. Messages stay; pending join requests are cancelled.
import type { SqlClient } from '../../platform/db/sql.js';
import { accountsAudience, emit } from '../events/emit.js';

export async function deleteRoomRows(client: SqlClient, roomId: string, by: string, at: Date): Promise<void> {
  const { rows } = await client.query<{ account_id: string }>('delete from room_members where room_id = $1 returning account_id', [roomId]);
  await client.query('update rooms set deleted_at = $2, member_count = 0 where id = $1', [roomId, at]);
  await client.query(
    `update join_requests set status = 'CANCELLED', resolved_at = $2, resolved_by = $3 where room_id = $1 and status = 'PENDING'`,
    [roomId, at, by],
  );
  // The room has no members any more, so the event names the former ones.
  await emit(client, 'room.deleted', { roomId, deletedBy: by }, accountsAudience(rows.map((r) => r.account_id)));
}
