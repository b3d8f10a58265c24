// Members put into a room, by every path that adds them (creation, additions, approvals, channel rules).
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { rows } from '../../platform/db/typed.js';
import type { RoomRole } from '../base/room-views.js';
import { chatDb } from '../base/tables.js';

/**
 * New members start with the room's history read (read mark at the room's current sequence number): joining an old
 * room does not make its whole past unread. Callers adding to an existing room hold its row lock, so no send
 * slips between reading last_seq and the insert.
 */
export async function insertMembers(
  client: SqlClient,
  roomId: string,
  members: Array<{ accountId: string; role: RoomRole }>,
  at: Date,
): Promise<string[]> {
  const added = await rows(
    client,
    chatDb
      .insertInto('room_members')
      .columns(['room_id', 'account_id', 'role', 'joined_at', 'last_read_seq'])
      .expression(
        chatDb.selectNoFrom((eb) => [
          sql<string>`${roomId}::uuid`.as('room_id'),
          sql<string>`unnest(${members.map((m) => m.accountId)}::uuid[])`.as('account_id'),
          sql<string>`unnest(${members.map((m) => m.role)}::text[])`.as('role'),
          sql<Date>`${at}::timestamptz`.as('joined_at'),
          eb.fn.coalesce(eb.selectFrom('rooms').select('last_seq').where('id', '=', roomId), sql<number>`0`).as('last_read_seq'),
        ]),
      )
      .onConflict((oc) => oc.doNothing())
      .returning('account_id'),
  );
  return added.map((r) => r.account_id);
}
