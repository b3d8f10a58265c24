// Whether two accounts are contacts: an ACCEPTED request in either direction, and the other account still active.
// A 1-1 room across customers needs it (RoomService.getOrCreatePrivate).
import type { Queryable } from '../rooms/membership.js';

export async function acceptedContact(db: Queryable, callerId: string, otherId: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `select 1 from contact_requests c join accounts a on a.id = $2 and a.status = 'ACTIVE'
      where c.status = 'ACCEPTED'
        and ((c.requester_id = $1 and c.invitee_id = $2) or (c.requester_id = $2 and c.invitee_id = $1))
      limit 1`,
    [callerId, otherId],
  );
  return (rowCount ?? 0) > 0;
}
