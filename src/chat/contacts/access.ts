// Whether two accounts are contacts: an ACCEPTED request in either direction, and the other account still active.
// A 1-1 room across customers needs it (RoomService.getOrCreatePrivate).
import { affected, type Runner } from '../../platform/db/typed.js';
import { chatDb } from '../base/tables.js';

export async function acceptedContact(db: Runner, callerId: string, otherId: string): Promise<boolean> {
  const found = await affected(
    db,
    chatDb
      .selectFrom('contact_requests as c')
      .innerJoin('accounts as a', (join) => join.on('a.id', '=', otherId).on('a.status', '=', 'ACTIVE'))
      .select('c.id')
      .where('c.status', '=', 'ACCEPTED')
      .where((eb) =>
        eb.or([
          eb.and([eb('c.requester_id', '=', callerId), eb('c.invitee_id', '=', otherId)]),
          eb.and([eb('c.requester_id', '=', otherId), eb('c.invitee_id', '=', callerId)]),
        ]),
      )
      .limit(1),
  );
  return found > 0;
}
