// The statements of the chats a bot names and reads: a chat_id's room among the bot's rooms, a room as getChat shows
// it, its members as Telegram's ChatMember shows them, their count and its latest pin.
import { sql } from 'kysely';
import { firstRow, rows, type Runner } from '../../../platform/db/typed.js';
import { example, type QueryExamples } from '../../../platform/db/query-examples.js';
import { chatDb } from '../../base/tables.js';

/** The room of this uuid when the account is a member of it. */
export async function memberRoom(db: Runner, roomId: string, accountId: string): Promise<string | undefined> {
  const member = await firstRow(
    db,
    chatDb.selectFrom('room_members').select('room_id').where('room_id', '=', roomId).where('account_id', '=', accountId),
  );
  return member?.room_id;
}

/** The account's room whose integer id is n's absolute value: private when n is positive, a group when negative. */
export async function roomByNumber(db: Runner, n: number, accountId: string): Promise<string | undefined> {
  const room = await firstRow(
    db,
    chatDb
      .selectFrom('rooms as r')
      .innerJoin('room_members as m', (join) => join.onRef('m.room_id', '=', 'r.id').on('m.account_id', '=', accountId))
      .select('r.id')
      .where(sql<boolean>`r.bot_api_id = abs(${n}::bigint) and (r.type = 'PRIVATE') = (${n}::bigint > 0)`),
  );
  return room?.id;
}

/** The private room the account shares with the user whose integer id is n. */
export async function privateRoomWithUser(db: Runner, n: number, accountId: string): Promise<string | undefined> {
  const room = await firstRow(
    db,
    chatDb
      .selectFrom('accounts as a')
      .innerJoin('room_members as o', 'o.account_id', 'a.id')
      .innerJoin('rooms as r', (join) => join.onRef('r.id', '=', 'o.room_id').on('r.type', '=', 'PRIVATE'))
      .innerJoin('room_members as m', (join) => join.onRef('m.room_id', '=', 'r.id').on('m.account_id', '=', accountId))
      .select('r.id')
      .where('a.bot_api_id', '=', n)
      .where('a.id', '<>', accountId)
      .orderBy('r.id')
      .limit(1),
  );
  return room?.id;
}

/** The room as getChat shows it, with the first member other than the account (a private chat's first_name). */
export async function chatOfRoom(db: Runner, roomId: string, accountId: string) {
  return firstRow(
    db,
    chatDb
      .selectFrom('rooms as r')
      .select(['r.bot_api_id', 'r.type', 'r.name'])
      .select((eb) =>
        eb
          .selectFrom('room_members as o')
          .innerJoin('accounts as a', 'a.id', 'o.account_id')
          .select('a.display_name')
          .whereRef('o.room_id', '=', 'r.id')
          .where('o.account_id', '<>', accountId)
          .orderBy('o.joined_at')
          .limit(1)
          .as('other_name'),
      )
      .where('r.id', '=', roomId),
  );
}

/** A room's members with what Telegram's ChatMember shows of them; narrow it with where(). */
const roomMembers = (roomId: string) =>
  chatDb
    .selectFrom('room_members as m')
    .innerJoin('accounts as a', 'a.id', 'm.account_id')
    .leftJoin('bots as b', (join) => join.onRef('b.account_id', '=', 'a.id').on('b.deleted_at', 'is', null))
    .select(['m.role', 'a.bot_api_id', 'a.display_name', 'a.account_type', 'b.username'])
    .where('m.room_id', '=', roomId);

/**
 * The owners first (Telegram's creator), then the admins, each by when they joined: members added with the room
 * share its creation time.
 */
export async function roomManagers(db: Runner, roomId: string) {
  return rows(
    db,
    roomMembers(roomId)
      .where('m.role', 'in', ['OWNER', 'ADMIN'])
      .orderBy(sql`m.role = 'OWNER'`, 'desc')
      .orderBy('m.joined_at')
      .orderBy('a.bot_api_id'),
  );
}

/** The room's member with this Telegram user id. */
export async function roomMemberByUserId(db: Runner, roomId: string, userId: number) {
  return firstRow(db, roomMembers(roomId).where('a.bot_api_id', '=', userId));
}

export async function memberCount(db: Runner, roomId: string): Promise<number> {
  const counted = await firstRow(
    db,
    chatDb
      .selectFrom('room_members')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('room_id', '=', roomId),
  );
  return counted?.n ?? 0;
}

/** The message pinned last in the room. */
export async function latestPinnedMessage(db: Runner, roomId: string): Promise<string | undefined> {
  const latest = await firstRow(
    db,
    chatDb.selectFrom('room_pins').select('message_id').where('room_id', '=', roomId).orderBy('pinned_at', 'desc').limit(1),
  );
  return latest?.message_id;
}

export const examples: QueryExamples = {
  memberRoom: (db) => memberRoom(db, example.id, example.otherId),
  roomByNumber: (db) => roomByNumber(db, -42, example.id),
  privateRoomWithUser: (db) => privateRoomWithUser(db, 42, example.id),
  chatOfRoom: (db) => chatOfRoom(db, example.id, example.otherId),
  roomManagers: (db) => roomManagers(db, example.id),
  roomMemberByUserId: (db) => roomMemberByUserId(db, example.id, 42),
  memberCount: (db) => memberCount(db, example.id),
  latestPinnedMessage: (db) => latestPinnedMessage(db, example.id),
};
