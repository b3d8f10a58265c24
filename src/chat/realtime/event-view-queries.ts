// The statements of the views events carry: rooms and members an event names, messages with the shared part of their
// thread summary, and reaction counts.
import { sql } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { hotRows, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { messageColumnsIn, type MessageRow } from '../base/message-views.js';
import type { AccountType } from '../rooms/member-views.js';
import type { RoomRole, RoomRow } from '../base/room-views.js';
import { chatDb } from '../base/tables.js';

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

/** The rooms' facts of the room list, of those that are live. */
export async function eventRoomRows(db: Runner, roomIds: string[]) {
  return rows(db, roomFacts(roomIds));
}

/** The members named by (roomIds[i], accountIds[i]) that are still members, with their accounts' names. */
export async function eventMemberRows(db: Runner, roomIds: string[], accountIds: string[]) {
  const named = sql<{ room_id: string; account_id: string }>`unnest(${roomIds}::uuid[], ${accountIds}::uuid[])`.as<'k'>(
    sql`k(room_id, account_id)`,
  );
  return rows(
    db,
    chatDb
      .selectFrom(named)
      .innerJoin('room_members as m', (join) => join.onRef('m.room_id', '=', 'k.room_id').onRef('m.account_id', '=', 'k.account_id'))
      .innerJoin('accounts as a', 'a.id', 'm.account_id')
      .select(['m.room_id', 'm.account_id', 'm.role', 'm.joined_at', 'a.display_name', 'a.avatar_url', 'a.account_type'])
      .$narrowType<{ role: RoomRole; account_type: AccountType }>(),
  );
}

/** The message row's columns of the alias `m`. */
const messageFields = messageColumnsIn('m');

/** Messages by id with the newest reply of each root; the text does not depend on the ids (a prepared statement). */
const messageFacts = (ids: string[]) =>
  chatDb
    .selectFrom('messages as m')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('messages as r')
          .select(['r.id', 'r.sender_id', 'r.text', 'r.recalled_at', 'r.created_at'])
          .where('m.reply_count', '>', sql.lit(0))
          .where('m.thread_root_id', 'is', null)
          .whereRef('r.thread_root_id', '=', 'm.id')
          .orderBy('r.seq', 'desc')
          .limit(sql.lit(1))
          .as('lr'),
      (join) => join.onTrue(),
    )
    .select(messageFields)
    .select([
      'm.reply_count',
      'm.last_reply_at',
      'lr.id as lr_id',
      'lr.sender_id as lr_sender_id',
      'lr.text as lr_text',
      'lr.recalled_at as lr_recalled_at',
      'lr.created_at as lr_created_at',
    ])
    .where('m.id', '=', sql<string>`any(${ids}::uuid[])`)
    .$narrowType<Pick<MessageRow, 'type' | 'attachments' | 'inline_keyboard' | 'entities' | 'reply_markup' | 'formatting'>>();

export type MessageFactsRow = Awaited<ReturnType<typeof eventMessageRows>>[number];

/** Messages by id with the newest reply of each root. */
export async function eventMessageRows(client: SqlClient, ids: string[]) {
  // Prepared: it runs on the path from a commit to the sockets.
  return hotRows(client, messageFacts(ids));
}

/** Reaction counts per message and emoji. */
export async function reactionCountRows(db: Runner, messageIds: string[]) {
  // The order of GET .../reactions: each emoji where it was first used on the message.
  return rows(
    db,
    chatDb
      .selectFrom('message_reactions')
      .select(['message_id', 'emoji', sql<number>`count(*)::int`.as('count')])
      .where('message_id', '=', sql<string>`any(${messageIds}::uuid[])`)
      .groupBy(['message_id', 'emoji'])
      .orderBy('message_id')
      .orderBy(sql`min(created_at)`)
      .orderBy('emoji'),
  );
}

export const examples: QueryExamples = {
  eventRoomRows: (db) => eventRoomRows(db, [example.id]),
  eventMemberRows: (db) => eventMemberRows(db, [example.id], [example.otherId]),
  eventMessageRows: (db) => eventMessageRows(db, [example.id]),
  reactionCountRows: (db) => reactionCountRows(db, [example.id]),
};
