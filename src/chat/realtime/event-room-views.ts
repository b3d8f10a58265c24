// The room and member views events carry: the room without the caller's own fields, and the members an event names.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { rows as allRows } from '../../platform/db/typed.js';
import type { AccountType, MemberView } from '../rooms/member-views.js';
import type { RoomRole, RoomRow, RoomView } from '../base/room-views.js';
import { chatDb } from '../base/tables.js';

/** The room's view without the caller's own fields (role, preferences, unread counts). */
export type EventRoomView = Pick<
  RoomView,
  | 'id'
  | 'type'
  | 'name'
  | 'description'
  | 'addMemberPolicy'
  | 'channelId'
  | 'memberCount'
  | 'createdBy'
  | 'createdAt'
  | 'lastActivityAt'
  | 'lastMessage'
>;

/** A member's view without the member's own preferences. */
export type EventMemberView = Pick<MemberView, 'accountId' | 'role' | 'joinedAt' | 'displayName' | 'avatarUrl' | 'accountType'>;

/** The room list's columns without the caller's own (role, unread and mention counts, labels, preferences). */
const roomFacts = (roomIds: string[]) =>
  chatDb
    .selectFrom('rooms as r')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('messages as x')
          .select(['x.id', 'x.sender_id', 'x.text', 'x.recalled_at', 'x.created_at'])
          .whereRef('x.room_id', '=', 'r.id')
          .where('x.thread_root_id', 'is', null)
          .orderBy('x.seq', 'desc')
          .limit(sql.lit(1))
          .as('lm'),
      (join) => join.onTrue(),
    )
    .select([
      'r.id',
      'r.type',
      'r.name',
      'r.description',
      'r.add_member_policy',
      'r.channel_id',
      'r.member_count',
      'r.created_by',
      'r.created_at',
      'r.last_activity_at',
      'lm.id as last_id',
      'lm.sender_id as last_sender_id',
      'lm.text as last_text',
      'lm.recalled_at as last_recalled_at',
      'lm.created_at as last_created_at',
    ])
    .where('r.id', '=', sql<string>`any(${roomIds}::uuid[])`)
    .where('r.deleted_at', 'is', null)
    .$narrowType<Pick<RoomRow, 'type' | 'add_member_policy'>>();

export async function roomViews(client: SqlClient, roomIds: string[]): Promise<Map<string, EventRoomView>> {
  if (roomIds.length === 0) return new Map();
  const rows = await allRows(client, roomFacts(roomIds));
  return new Map(
    rows.map((r) => [
      r.id,
      {
        id: r.id,
        type: r.type,
        name: r.name,
        description: r.description,
        addMemberPolicy: r.add_member_policy,
        channelId: r.channel_id,
        memberCount: r.member_count,
        createdBy: r.created_by,
        createdAt: r.created_at.toISOString(),
        lastActivityAt: r.last_activity_at.toISOString(),
        lastMessage:
          r.last_id && r.last_sender_id && r.last_created_at
            ? {
                id: r.last_id,
                senderId: r.last_sender_id,
                text: r.last_recalled_at ? null : r.last_text,
                createdAt: r.last_created_at.toISOString(),
              }
            : null,
      },
    ]),
  );
}

/** Member views keyed `roomId:accountId`, of those still members. */
export async function memberViews(client: SqlClient, roomIds: string[], accountIds: string[]): Promise<Map<string, EventMemberView>> {
  if (roomIds.length === 0) return new Map();
  const named = sql<{ room_id: string; account_id: string }>`unnest(${roomIds}::uuid[], ${accountIds}::uuid[])`.as<'k'>(
    sql`k(room_id, account_id)`,
  );
  const rows = await allRows(
    client,
    chatDb
      .selectFrom(named)
      .innerJoin('room_members as m', (join) => join.onRef('m.room_id', '=', 'k.room_id').onRef('m.account_id', '=', 'k.account_id'))
      .innerJoin('accounts as a', 'a.id', 'm.account_id')
      .select(['m.room_id', 'm.account_id', 'm.role', 'm.joined_at', 'a.display_name', 'a.avatar_url', 'a.account_type'])
      .$narrowType<{ role: RoomRole; account_type: AccountType }>(),
  );
  return new Map(
    rows.map((r) => [
      `${r.room_id}:${r.account_id}`,
      {
        accountId: r.account_id,
        role: r.role,
        joinedAt: r.joined_at.toISOString(),
        displayName: r.display_name,
        avatarUrl: r.avatar_url,
        accountType: r.account_type,
      },
    ]),
  );
}
