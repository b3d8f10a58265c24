// The statements that find the members a bot's message names: by @username (selective reply markup), by Telegram
// user id (text_mention spans), and the other member of a private room.
import { sql } from 'kysely';
import { rows, type Runner } from '../../../platform/db/typed.js';
import { example, type QueryExamples } from '../../../platform/db/query-examples.js';
import { chatDb } from '../../base/tables.js';

/** Members of the room whose username is one of these (lower case) names. */
export async function membersByUsername(db: Runner, roomId: string, names: string[]): Promise<string[]> {
  const found = await rows(
    db,
    chatDb
      .selectFrom('room_members as rm')
      .innerJoin('accounts as a', 'a.id', 'rm.account_id')
      .select('rm.account_id')
      .where('rm.room_id', '=', roomId)
      .where(sql<string>`lower(a.username)`, '=', sql<string>`any(${names}::text[])`),
  );
  return found.map((r) => r.account_id);
}

/** The other member of a private room; none in any other room. */
export async function privatePeer(db: Runner, roomId: string, senderId: string): Promise<string[]> {
  const found = await rows(
    db,
    chatDb
      .selectFrom('room_members as rm')
      .innerJoin('rooms as r', 'r.id', 'rm.room_id')
      .select('rm.account_id')
      .where('rm.room_id', '=', roomId)
      .where('r.type', '=', 'PRIVATE')
      .where('rm.account_id', '!=', senderId),
  );
  return found.map((r) => r.account_id);
}

/** Members of the room with these Telegram user ids, with what a Telegram user shows of them. */
export async function membersByUserId(db: Runner, roomId: string, ids: number[]) {
  return rows(
    db,
    chatDb
      .selectFrom('room_members as m')
      .innerJoin('accounts as a', 'a.id', 'm.account_id')
      .leftJoin('bots as b', (join) => join.onRef('b.account_id', '=', 'a.id').on('b.deleted_at', 'is', null))
      .select(['a.id', 'a.bot_api_id', 'a.display_name', 'a.account_type', 'b.username'])
      .where('m.room_id', '=', roomId)
      .where(sql<boolean>`a.bot_api_id = any(${ids}::bigint[])`),
  );
}

export const examples: QueryExamples = {
  membersByUsername: (db) => membersByUsername(db, example.id, ['alice', 'bob']),
  privatePeer: (db) => privatePeer(db, example.id, example.otherId),
  membersByUserId: (db) => membersByUserId(db, example.id, [42, 43]),
};
