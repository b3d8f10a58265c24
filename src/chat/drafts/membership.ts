// The gate of the caller's per-room things (drafts, room labels, saved cards): a member of a live room, else 404
// room_not_found. The member row is locked so that a concurrent leave, whose row deletion clears those things
// (the trigger of migration Migration20261123000160Personal), waits for the write instead of leaving it behind.
import type { SqlClient } from '../../platform/db/sql.js';
import type { Caller } from '../base/context.js';
import { roomNotFound } from '../base/membership.js';
import { lockMember } from './queries.js';

/**
 * `key share` lets writes of different rooms and preference updates go on; `no key update` also serialises the
 * caller's own writes to that room (a replace of all its labels must not interleave with another).
 */
export async function lockMembership(
  client: SqlClient,
  caller: Caller,
  roomId: string,
  mode: 'key share' | 'no key update' = 'key share',
): Promise<void> {
  if (!(await lockMember(client, caller.accountId, roomId, mode))) throw roomNotFound();
}
