// The gate of the caller's per-room things (drafts, room labels, saved cards): a member of a live room, else 404
// room_not_found. The member row is locked so that a concurrent leave, whose row deletion clears those things
// (the trigger of migration Migration20261123000160Personal), waits for the write instead of leaving it behind.
import type { SqlClient } from '../../platform/db/sql.js';
import type { Caller } from '../context.js';
import { roomNotFound } from '../rooms/membership.js';

/**
 * `key share` lets writes of different rooms and preference updates go on; `no key update` also serialises the
 * caller's own writes to that room (a replace of all its labels must not interleave with another).
 */
export async function lockMembership(client: SqlClient, caller: Caller, roomId: string, mode: 'key share' | 'no key update' = 'key share'): Promise<void> {
  const { rowCount } = await client.query(
    `select 1 from room_members m join rooms r on r.id = m.room_id and r.deleted_at is null
      where m.room_id = $1 and m.account_id = $2 for ${mode} of m`,
    [roomId, caller.accountId],
  );
  if (rowCount === 0) throw roomNotFound();
}
