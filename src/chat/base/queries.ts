// The statements of the gates every feature passes (a room's or a channel's membership) and of a retried send.
import { sql } from 'kysely';
import { firstRow, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from './tables.js';
import { messageColumnNames } from './message-views.js';
import type { AddMemberPolicy, RoomRole, RoomType } from './room-views.js';

/** The live room's type and policy with the account's role in it; undefined when it is no member. */
export async function membershipRow(db: Runner, accountId: string, roomId: string, lock: boolean) {
  const select = chatDb
    .selectFrom('rooms as r')
    .innerJoin('room_members as m', (join) => join.onRef('m.room_id', '=', 'r.id').on('m.account_id', '=', accountId))
    .select(['r.type', 'r.add_member_policy', 'm.role'])
    .where('r.id', '=', roomId)
    .where('r.deleted_at', 'is', null)
    .$narrowType<{ type: RoomType; add_member_policy: AddMemberPolicy; role: RoomRole }>();
  return firstRow(db, lock ? select.forUpdate('r') : select);
}

const memberRow = (roomId: string, accountId: string) =>
  chatDb.selectFrom('room_members').where('room_id', '=', roomId).where('account_id', '=', accountId);

/** The account's role in the room; undefined when it is no member (a deleted room has no members). */
export async function memberRole(db: Runner, roomId: string, accountId: string): Promise<RoomRole | undefined> {
  return (await firstRow(db, memberRow(roomId, accountId).select('role').$narrowType<{ role: RoomRole }>()))?.role;
}

/** Whether the account is a member of the room. */
export async function memberExists(db: Runner, roomId: string, accountId: string): Promise<boolean> {
  return (await firstRow(db, memberRow(roomId, accountId).select(sql<number>`1`.as('one')))) !== undefined;
}

/** The live channel's settings with the account's role in it; undefined when it is no member. */
export async function channelAccessRow(db: Runner, accountId: string, channelId: string, lock: boolean) {
  return firstRow(
    db,
    chatDb
      .selectFrom('channels as c')
      .innerJoin('channel_members as m', (join) => join.onRef('m.channel_id', '=', 'c.id').on('m.account_id', '=', accountId))
      .select(['c.membership_mode', 'c.module_code', 'c.customer_account_id', 'c.rule', 'm.role'])
      .where('c.id', '=', channelId)
      .where('c.deleted_at', 'is', null)
      .$if(lock, (q) => q.forUpdate('c')),
  );
}

/** The message the account sent first with this clientMessageId, and whether it is still a member of the room. */
export async function sentMessage(db: Runner, accountId: string, roomId: string, clientMessageId: string) {
  return firstRow(
    db,
    chatDb
      .selectFrom('messages')
      .select((eb) => [
        ...messageColumnNames,
        eb
          .exists(
            eb
              .selectFrom('room_members')
              .select(sql.lit(1).as('one'))
              .where('room_members.room_id', '=', roomId)
              .where('room_members.account_id', '=', accountId),
          )
          .as('member'),
      ])
      .where('room_id', '=', roomId)
      .where('sender_id', '=', accountId)
      .where('client_message_id', '=', clientMessageId),
  );
}

export const examples: QueryExamples = {
  membershipRow: (db) => membershipRow(db, example.id, example.otherId, true),
  memberRole: (db) => memberRole(db, example.otherId, example.id),
  memberExists: (db) => memberExists(db, example.otherId, example.id),
  channelAccessRow: (db) => channelAccessRow(db, example.id, example.otherId, true),
  sentMessage: (db) => sentMessage(db, example.id, example.otherId, example.text),
};
