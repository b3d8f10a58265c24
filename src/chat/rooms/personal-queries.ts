// The statements of the caller's own settings in a room and of its read mark.
import { sql, type QueryCreator } from 'kysely';
import type { SqlClient } from '../../platform/db/sql.js';
import { affected, firstRow, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import type { NotificationLevel, RoomRole } from '../base/room-views.js';
import { chatDb, type ChatTables } from '../base/tables.js';
import { chatTopic, outboxInsertFrom } from '../events/emit.js';
import type { AccountType } from './member-views.js';
import { mentionCount, preferenceSelection, unreadCount } from './room-queries.js';

/** A sender hears of reads of its messages at most once per room in this window (docs/adr/0154-read-receipts.md). */
export const readNoticeWindowMs = 2000;
/** How many of the newest messages a read passed are looked at for their senders: a long jump needs no more. */
const readNoticeScan = 200;

/**
 * Moves the account's read mark up to the message (or, without one, the room's newest message) and writes the
 * room.read event when it moved, in one statement; a mark never moves backwards, also when marks race (the update's
 * condition is re-checked on the locked row). No row: no member of a live room; a null target: no such message.
 * A move also stamps the mark's time (the readAt of read receipts) and owes the senders of the messages it passed a
 * message.read event (readNotices).
 */
export async function moveReadMark(
  db: Runner,
  mark: { accountId: string; roomId: string; messageId: string | undefined; audience: string; at: Date },
) {
  const { accountId, roomId, messageId, audience, at } = mark;
  return firstRow(
    db,
    chatDb
      .with('target', (q) =>
        q
          .selectFrom('rooms as r')
          .innerJoin('room_members as m', (join) => join.onRef('m.room_id', '=', 'r.id').on('m.account_id', '=', accountId))
          .select((eb) => [
            messageId === undefined
              ? eb.ref('r.last_seq').$castTo<number | null>().as('seq')
              : eb
                  .selectFrom('messages as x')
                  .select('x.seq')
                  .whereRef('x.room_id', '=', 'r.id')
                  .where('x.id', '=', messageId)
                  .$asScalar()
                  .as('seq'),
            'm.last_read_seq as previous',
          ])
          .where('r.id', '=', roomId)
          .where('r.deleted_at', 'is', null),
      )
      .with('moved', (q) =>
        q
          .updateTable('room_members as m')
          .from('target as t')
          .set((eb) => ({ last_read_seq: eb.ref('t.seq').$castTo<number>(), last_read_at: at }))
          .where('m.room_id', '=', roomId)
          .where('m.account_id', '=', accountId)
          .where('t.seq', 'is not', null)
          .whereRef('m.last_read_seq', '<', 't.seq')
          .returning('m.last_read_seq'),
      )
      .with('notices', (q) => readNotices(q, { accountId, roomId, at }))
      .with('event', (q) =>
        outboxInsertFrom(
          q,
          q
            .selectFrom('moved')
            .select((eb) => [
              chatTopic('room.read').as('topic'),
              sql<unknown>`jsonb_build_object('roomId', ${roomId}::uuid, 'accountId', ${accountId}::uuid, 'lastReadSeq', ${eb.ref('moved.last_read_seq')}, 'audience', ${audience}::jsonb)`.as(
                'payload',
              ),
            ]),
        ),
      )
      .selectFrom('target as t')
      .select((eb) => ['t.seq as target', eb.selectFrom('moved').select('last_read_seq').$asScalar().as('moved')]),
  );
}

/** What moveReadMark's statement has made when it owes read notices: the mark's target and its move. */
type Moved = ChatTables & { target: { seq: number | null; previous: number }; moved: { last_read_seq: number } };

/**
 * The senders of the newest messages the mark passed are owed a message.read event at the end of a 2 s window; a
 * pending one (a read within the window) absorbs this one. Nothing when either side does not share its receipts.
 */
function readNotices(q: QueryCreator<Moved>, mark: { accountId: string; roomId: string; at: Date }) {
  const { accountId, roomId, at } = mark;
  const passed = q
    .selectFrom(['messages as x', 'target as t', 'moved as mv'])
    .select('x.sender_id')
    .where('x.room_id', '=', roomId)
    .whereRef('x.seq', '>', 't.previous')
    .whereRef('x.seq', '<=', 'mv.last_read_seq')
    .where('x.sender_id', '<>', accountId)
    .orderBy('x.seq', 'desc')
    .limit(sql.lit(readNoticeScan))
    .as('p');
  const due = new Date(at.getTime() + readNoticeWindowMs);
  return q
    .insertInto('read_notices')
    .columns(['room_id', 'sender_id', 'due_at'])
    .expression((eb) =>
      eb
        .selectFrom(passed)
        .select([sql<string>`${roomId}::uuid`.as('room_id'), 'p.sender_id', sql<Date>`${due}::timestamptz`.as('due_at')])
        .distinct()
        .where((w) =>
          w.not(
            w.exists(
              w
                .selectFrom('receipt_settings as s')
                .select('s.account_id')
                .where((o) => o.or([o('s.account_id', '=', accountId), o('s.account_id', '=', o.ref('p.sender_id'))]))
                .where('s.share_read_receipts', '=', false),
            ),
          ),
        ),
    )
    .onConflict((oc) => oc.doNothing());
}

/** The account's read mark of the room with its unread and mention counts. */
export async function readState(db: Runner, accountId: string, roomId: string) {
  const mark = chatDb
    .selectFrom('room_members as m')
    .select(['m.room_id as id', 'm.last_read_seq'])
    .where('m.room_id', '=', roomId)
    .where('m.account_id', '=', accountId);
  return firstRow(
    db,
    chatDb.selectFrom(mark.as('p')).select((eb) => ['p.last_read_seq', unreadCount(eb, accountId), mentionCount(eb, accountId)]),
  );
}

/** The account's preferences of a live room, its member row locked; undefined when it is no member of one. */
export async function lockPreferences(client: SqlClient, accountId: string, roomId: string) {
  return firstRow(
    client,
    chatDb
      .selectFrom('room_members as m')
      .innerJoin('rooms as r', (join) => join.onRef('r.id', '=', 'm.room_id').on('r.deleted_at', 'is', null))
      .select((eb) => preferenceSelection(eb))
      .where('m.room_id', '=', roomId)
      .where('m.account_id', '=', accountId)
      .forUpdate('m'),
  );
}

/** Writes the account's preferences of the room; a mute until 'infinity' is permanent. */
export async function writePreferences(
  client: SqlClient,
  accountId: string,
  roomId: string,
  next: { archived: boolean; pinned: boolean; notificationLevel: NotificationLevel; mutedUntil: string | null },
  now: Date,
): Promise<void> {
  await affected(
    client,
    chatDb
      .updateTable('room_members')
      .set((eb) => ({
        archived: next.archived,
        pinned: next.pinned,
        notification_level: next.notificationLevel,
        muted_until: sql<Date | null>`${next.mutedUntil}::timestamptz`,
        // a pin keeps its time while the room stays pinned
        pinned_at: next.pinned ? sql<Date>`case when ${eb.ref('pinned')} then ${eb.ref('pinned_at')} else ${now}::timestamptz end` : null,
      }))
      .where('room_id', '=', roomId)
      .where('account_id', '=', accountId),
  );
}

/** The account as a member of the room, with its preferences. */
export async function memberWithPreferences(db: Runner, accountId: string, roomId: string) {
  return firstRow(
    db,
    chatDb
      .selectFrom('room_members as m')
      .innerJoin('accounts as a', 'a.id', 'm.account_id')
      .select((eb) => [
        'm.account_id',
        eb.ref('m.role').$castTo<RoomRole>().as('role'),
        'm.joined_at',
        'a.display_name',
        'a.avatar_url',
        eb.ref('a.account_type').$castTo<AccountType>().as('account_type'),
        ...preferenceSelection(eb),
      ])
      .where('m.room_id', '=', roomId)
      .where('m.account_id', '=', accountId),
  );
}

export const examples: QueryExamples = {
  moveReadMark: (db) =>
    moveReadMark(db, { accountId: example.id, roomId: example.otherId, messageId: example.id, audience: '{}', at: example.at }),
  readState: (db) => readState(db, example.id, example.otherId),
  lockPreferences: (db) => lockPreferences(db, example.id, example.otherId),
  writePreferences: (db) =>
    writePreferences(
      db,
      example.id,
      example.otherId,
      { archived: false, pinned: true, notificationLevel: 'ALL', mutedUntil: null },
      example.at,
    ),
  memberWithPreferences: (db) => memberWithPreferences(db, example.id, example.otherId),
};
