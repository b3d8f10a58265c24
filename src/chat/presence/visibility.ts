// Whose presence an account may learn: its own, that of anyone it shares a room with, and that of its accepted
// contacts. Strangers learn nothing, not even whether an account exists.
import type { SqlPool } from '../../platform/db/sql.js';
import { presenceEventRoomMaxMembers } from './limits.js';

/** The subset of `ids` the viewer may see (a deleted room has no members left, so it shares nothing). */
export async function visibleTo(sql: SqlPool, viewerId: string, ids: string[]): Promise<Set<string>> {
  const { rows } = await sql.query<{ id: string }>(
    `select x.id from unnest($2::uuid[]) as x(id)
      where x.id = $1
         or exists (select 1 from room_members a join room_members b on b.room_id = a.room_id
                     where a.account_id = $1 and b.account_id = x.id)
         or exists (select 1 from contact_requests c
                     where c.status = 'ACCEPTED'
                       and ((c.requester_id = $1 and c.invitee_id = x.id) or (c.invitee_id = $1 and c.requester_id = x.id)))`,
    [viewerId, ids],
  );
  return new Set(rows.map((r) => r.id));
}

/**
 * Who hears each account's presence events, for many accounts in one statement: the account itself (its other
 * devices), co-members of its rooms up to presenceEventRoomMaxMembers members and its accepted contacts.
 */
export async function presenceAudiences(sql: SqlPool, accountIds: string[]): Promise<Map<string, string[]>> {
  const { rows } = await sql.query<{ subject: string; id: string }>(
    `with s as (select unnest($1::uuid[]) as id)
     select s.id as subject, s.id as id from s
     union
     select s.id, b.account_id from s
       join room_members a on a.account_id = s.id
       join rooms r on r.id = a.room_id and r.member_count <= $2
       join room_members b on b.room_id = a.room_id
     union
     select s.id, case when c.requester_id = s.id then c.invitee_id else c.requester_id end from s
       join contact_requests c on c.status = 'ACCEPTED' and (c.requester_id = s.id or c.invitee_id = s.id)`,
    [accountIds, presenceEventRoomMaxMembers],
  );
  const out = new Map<string, string[]>(accountIds.map((id) => [id, []]));
  for (const r of rows) out.get(r.subject)?.push(r.id);
  return out;
}
