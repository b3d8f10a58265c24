// Whose presence an account may learn: its own, that of anyone it shares a room with, and that of its accepted
// contacts. Strangers learn nothing, not even whether an account exists.
import type { SqlPool } from '../../platform/db/sql.js';
import { presenceEventRoomMaxMembers } from './limits.js';
import { presenceListeners, visibleIds } from './queries.js';

/** The subset of `ids` the viewer may see (a deleted room has no members left, so it shares nothing). */
export async function visibleTo(pool: SqlPool, viewerId: string, ids: string[]): Promise<Set<string>> {
  const found = await visibleIds(pool, viewerId, ids);
  return new Set(found);
}

/**
 * Who hears each account's presence events, for many accounts in one statement: the account itself (its other
 * devices), co-members of its rooms up to presenceEventRoomMaxMembers members and its accepted contacts.
 */
export async function presenceAudiences(pool: SqlPool, accountIds: string[]): Promise<Map<string, string[]>> {
  const found = await presenceListeners(pool, accountIds, presenceEventRoomMaxMembers);
  const out = new Map<string, string[]>(accountIds.map((id) => [id, []]));
  for (const r of found) out.get(r.subject)?.push(r.id);
  return out;
}
