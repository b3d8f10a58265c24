// The statements of my_chat_member and chat_member updates: the room with its owner and roles, the people of the
// changes, and the room's bots that listen to chat_member.
import { sql } from 'kysely';
import type { SqlClient } from '../../../platform/db/sql.js';
import { firstRow, rows } from '../../../platform/db/typed.js';
import { example, type QueryExamples } from '../../../platform/db/query-examples.js';
import { chatDb } from '../../base/tables.js';

/** The room with its first owner and every member's role. */
export async function roomOf(client: SqlClient, roomId: string) {
  return firstRow(
    client,
    chatDb
      .selectFrom('rooms as r')
      .select(['r.bot_api_id', 'r.type', 'r.name'])
      .select((eb) =>
        eb
          .selectFrom('room_members as o')
          .select('o.account_id')
          .whereRef('o.room_id', '=', 'r.id')
          .where('o.role', '=', 'OWNER')
          .orderBy('o.joined_at')
          .limit(1)
          .as('owner_id'),
      )
      .select((eb) =>
        eb
          .selectFrom('room_members as x')
          .select(
            sql<
              Array<{ account_id: string; role: string }>
            >`coalesce(json_agg(json_build_object('account_id', x.account_id, 'role', x.role)), '[]')`.as('m'),
          )
          .whereRef('x.room_id', '=', 'r.id')
          .as('roles'),
      )
      .where('r.id', '=', roomId),
  );
}

/** The accounts with their live bot, if any. */
export async function people(client: SqlClient, ids: string[]) {
  return rows(
    client,
    chatDb
      .selectFrom('accounts as a')
      .leftJoin('bots as b', (join) => join.onRef('b.account_id', '=', 'a.id').on('b.deleted_at', 'is', null))
      .select(['a.id', 'a.bot_api_id', 'a.display_name', 'a.account_type', 'b.id as bot_id', 'b.username', 'b.allowed_updates'])
      .where(sql<boolean>`a.id = any(${ids}::uuid[])`),
  );
}

/** The room's bots that listed chat_member, at drain time. */
export async function listeningBots(client: SqlClient, roomId: string) {
  return rows(
    client,
    chatDb
      .selectFrom('room_members as m')
      .innerJoin('bots as b', (join) => join.onRef('b.account_id', '=', 'm.account_id').on('b.deleted_at', 'is', null))
      .select(['b.id', 'b.account_id'])
      .where('m.room_id', '=', roomId)
      .where(sql<boolean>`'chat_member' = any(b.allowed_updates)`)
      .orderBy('b.id'),
  );
}

export const examples: QueryExamples = {
  roomOf: (db) => roomOf(db, example.id),
  people: (db) => people(db, [example.id, example.otherId]),
  listeningBots: (db) => listeningBots(db, example.id),
};
