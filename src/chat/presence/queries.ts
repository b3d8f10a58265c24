// The statements of presence and typing: whose presence an account may learn, who hears an account's presence, and
// the members a typing notice goes to.
import { sql } from 'kysely';
import { rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';

/** Those of `ids` that are the viewer, share a room with it or are its accepted contacts. */
export async function visibleIds(db: Runner, viewerId: string, ids: string[]): Promise<string[]> {
  const found = await rows(
    db,
    chatDb
      .selectFrom(sql<{ id: string }>`unnest(${ids}::uuid[])`.as<'x'>(sql`x(id)`))
      .select('x.id')
      .where((eb) =>
        eb.or([
          eb('x.id', '=', viewerId),
          eb.exists(
            eb
              .selectFrom('room_members as a')
              .innerJoin('room_members as b', 'b.room_id', 'a.room_id')
              .select(sql.lit(1).as('one'))
              .where('a.account_id', '=', viewerId)
              .whereRef('b.account_id', '=', 'x.id'),
          ),
          eb.exists(
            eb
              .selectFrom('contact_requests as c')
              .select(sql.lit(1).as('one'))
              .where('c.status', '=', 'ACCEPTED')
              .where((c) =>
                c.or([
                  c.and([c('c.requester_id', '=', viewerId), c('c.invitee_id', '=', c.ref('x.id'))]),
                  c.and([c('c.invitee_id', '=', viewerId), c('c.requester_id', '=', c.ref('x.id'))]),
                ]),
              ),
          ),
        ]),
      ),
  );
  return found.map((r) => r.id);
}

/**
 * [subject, listener] pairs of each account: itself, co-members of its rooms of at most `roomMaxMembers` members, and
 * its accepted contacts.
 */
export async function presenceListeners(db: Runner, accountIds: string[], roomMaxMembers: number) {
  return rows(
    db,
    chatDb
      .with('s', (db) => db.selectNoFrom(sql<string>`unnest(${accountIds}::uuid[])`.as('id')))
      .selectFrom('s')
      .select(['s.id as subject', 's.id as id'])
      .union((eb) =>
        eb
          .selectFrom('s')
          .innerJoin('room_members as a', 'a.account_id', 's.id')
          .innerJoin('rooms as r', (j) => j.onRef('r.id', '=', 'a.room_id').on('r.member_count', '<=', roomMaxMembers))
          .innerJoin('room_members as b', 'b.room_id', 'a.room_id')
          .select(['s.id as subject', 'b.account_id as id']),
      )
      .union((eb) =>
        eb
          .selectFrom('s')
          .innerJoin('contact_requests as c', (j) =>
            j
              .on('c.status', '=', 'ACCEPTED')
              .on((o) => o.or([o('c.requester_id', '=', o.ref('s.id')), o('c.invitee_id', '=', o.ref('s.id'))])),
          )
          .select((c) => [
            's.id as subject',
            c.case().when('c.requester_id', '=', c.ref('s.id')).then(c.ref('c.invitee_id')).else(c.ref('c.requester_id')).end().as('id'),
          ]),
      ),
  );
}

/** The account ids of the room's members (none for a deleted room). */
export async function roomMemberIds(db: Runner, roomId: string): Promise<string[]> {
  const members = await rows(db, chatDb.selectFrom('room_members').select('account_id').where('room_id', '=', roomId));
  return members.map((r) => r.account_id);
}

export const examples: QueryExamples = {
  visibleIds: (db) => visibleIds(db, example.id, [example.otherId]),
  presenceListeners: (db) => presenceListeners(db, [example.id], 100),
  roomMemberIds: (db) => roomMemberIds(db, example.id),
};
