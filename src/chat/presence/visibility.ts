// Whose presence an account may learn: its own, that of anyone it shares a room with, and that of its accepted
// contacts. Strangers learn nothing, not even whether an account exists.
import { sql } from 'kysely';
import type { SqlPool } from '../../platform/db/sql.js';
import { rows } from '../../platform/db/typed.js';
import { chatDb } from '../base/tables.js';
import { presenceEventRoomMaxMembers } from './limits.js';

/** The subset of `ids` the viewer may see (a deleted room has no members left, so it shares nothing). */
export async function visibleTo(pool: SqlPool, viewerId: string, ids: string[]): Promise<Set<string>> {
  const found = await rows(
    pool,
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
  return new Set(found.map((r) => r.id));
}

/**
 * Who hears each account's presence events, for many accounts in one statement: the account itself (its other
 * devices), co-members of its rooms up to presenceEventRoomMaxMembers members and its accepted contacts.
 */
export async function presenceAudiences(pool: SqlPool, accountIds: string[]): Promise<Map<string, string[]>> {
  const found = await rows(
    pool,
    chatDb
      .with('s', (db) => db.selectNoFrom(sql<string>`unnest(${accountIds}::uuid[])`.as('id')))
      .selectFrom('s')
      .select(['s.id as subject', 's.id as id'])
      .union((eb) =>
        eb
          .selectFrom('s')
          .innerJoin('room_members as a', 'a.account_id', 's.id')
          .innerJoin('rooms as r', (j) => j.onRef('r.id', '=', 'a.room_id').on('r.member_count', '<=', presenceEventRoomMaxMembers))
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
  const out = new Map<string, string[]>(accountIds.map((id) => [id, []]));
  for (const r of found) out.get(r.subject)?.push(r.id);
  return out;
}
