// The caller's rooms with the caller's unread count, mention count, last message and labels, in one typed
// statement over the entities (the room list, one room, a get-or-create answer). The inner select narrows
// `room_members m join rooms r` and pages it, so the counts and the last-message lookup run only for the page.
import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder } from 'kysely';
import { firstRow, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb, type ChatTables } from '../base/tables.js';
import { hiddenBy } from '../base/message-queries.js';
import type { AddMemberPolicy, NotificationLevel, RoomRole, RoomType } from '../base/room-views.js';

/** The joined tables the inner select narrows: the caller's membership `m` of room `r`. */
type Scope = ChatTables & { m: ChatTables['room_members']; r: ChatTables['rooms'] };
export type RoomScope = SelectQueryBuilder<Scope, 'm' | 'r', object>;

/** Preference columns of room_members aliased `m`; a permanent mute is stored as 'infinity' (read as muted_forever). */
export function preferenceSelection(eb: ExpressionBuilder<{ m: ChatTables['room_members'] }, 'm'>) {
  const until = eb.ref('m.muted_until');
  return [
    'm.archived',
    'm.pinned',
    eb.ref('m.notification_level').$castTo<NotificationLevel>().as('notification_level'),
    sql<Date | null>`case when ${until} = 'infinity' then null else ${until} end`.as('muted_until'),
    sql<boolean>`coalesce(${until} = 'infinity', false)`.as('muted_forever'),
  ] as const;
}

/** Counts of room `p.id` above the read mark `p.last_read_seq`. */
export type Counted = ExpressionBuilder<ChatTables & { p: { id: string; last_read_seq: number } }, 'p'>;

/**
 * The caller's unread count of room `p.id` above mark `p.last_read_seq` (docs/adr/0015-unread-minus-hides.md):
 * top-level messages after the mark, not the caller's, not recalled, minus the caller's hides among them (an
 * index-only range scan of messages_room_top_level, then the caller's few hides of the room by primary key).
 */
export function unreadCount(eb: Counted, accountId: string | Expression<string>) {
  const all = eb
    .selectFrom('messages as x')
    .select(sql<number>`count(*)::int`.as('n'))
    .whereRef('x.room_id', '=', 'p.id')
    .where('x.thread_root_id', 'is', null)
    .whereRef('x.seq', '>', 'p.last_read_seq')
    .where('x.sender_id', '<>', accountId)
    .where('x.recalled_at', 'is', null);
  const hidden = eb
    .selectFrom('message_hides as h')
    .innerJoin('messages as hx', 'hx.id', 'h.message_id')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('h.account_id', '=', accountId)
    .whereRef('h.room_id', '=', 'p.id')
    .where('hx.thread_root_id', 'is', null)
    .whereRef('hx.seq', '>', 'p.last_read_seq')
    .where('hx.sender_id', '<>', accountId)
    .where('hx.recalled_at', 'is', null);
  return sql<number>`(${all} - ${hidden})`.as('unread_count');
}

/** The caller's unread mentions of the room: not marked read and past the read mark (partial index mentions_unread). */
export function mentionCount(eb: Counted, accountId: string | Expression<string>) {
  return eb
    .selectFrom('mentions as mn')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('mn.account_id', '=', accountId)
    .whereRef('mn.room_id', '=', 'p.id')
    .where('mn.read_at', 'is', null)
    .whereRef('mn.seq', '>', 'p.last_read_seq')
    .$asScalar()
    .as('mention_count');
}

/** The caller's rooms narrowed and paged by `narrow`; the rows carry RoomRow's columns. */
export function roomQuery(accountId: string | Expression<string>, narrow: (scope: RoomScope) => RoomScope = (scope) => scope) {
  const scope: RoomScope = chatDb
    .selectFrom('room_members as m')
    .innerJoin('rooms as r', 'r.id', 'm.room_id')
    .where('m.account_id', '=', accountId)
    .where('r.deleted_at', 'is', null);
  const page = narrow(scope).select((eb) => [
    'r.id',
    eb.ref('r.type').$castTo<RoomType>().as('type'),
    'r.name',
    'r.description',
    eb.ref('r.add_member_policy').$castTo<AddMemberPolicy>().as('add_member_policy'),
    'r.channel_id',
    'r.member_count',
    'r.created_by',
    'r.created_at',
    'r.last_activity_at',
    eb.ref('m.role').$castTo<RoomRole>().as('my_role'),
    'm.last_read_seq',
    ...preferenceSelection(eb),
  ]);
  return chatDb
    .selectFrom(page.as('p'))
    .leftJoinLateral(
      // the newest top-level message the caller has not hidden: a backward scan of messages_room_top_level
      (eb) =>
        eb
          .selectFrom('messages as x')
          .select(['x.id', 'x.sender_id', 'x.text', 'x.recalled_at', 'x.created_at'])
          .whereRef('x.room_id', '=', 'p.id')
          .where('x.thread_root_id', 'is', null)
          .where(({ not, exists, ref }) => not(exists(hiddenBy(accountId, ref('x.id')))))
          .orderBy('x.seq', 'desc')
          .limit(sql.lit(1))
          .as('lm'),
      (join) => join.onTrue(),
    )
    .selectAll('p')
    .select((eb) => [
      unreadCount(eb, accountId),
      mentionCount(eb, accountId),
      'lm.id as last_id',
      'lm.sender_id as last_sender_id',
      'lm.text as last_text',
      sql<boolean | null>`${eb.ref('lm.recalled_at')} is not null`.as('last_recalled'),
      'lm.created_at as last_created_at',
      sql<string[]>`array(${eb
        .selectFrom('room_labels as rl')
        .innerJoin('labels as l', 'l.id', 'rl.label_id')
        .select('l.id')
        .where('rl.account_id', '=', accountId)
        .whereRef('rl.room_id', '=', 'p.id')
        .orderBy((ob) => ob.fn('lower', ['l.name']))
        .orderBy('l.id')})`.as('label_ids'),
    ]);
}

/** One room of the caller's, by id; undefined when the caller is no member of a live room of that id. */
export async function roomOf(db: Runner, accountId: string, roomId: string) {
  return firstRow(
    db,
    roomQuery(accountId, (scope) => scope.where('r.id', '=', roomId)),
  );
}

/** The caller's get-or-create room of this singleton key, when the caller is its member. */
export async function singletonRoomOf(db: Runner, accountId: string, key: string) {
  return firstRow(
    db,
    roomQuery(accountId, (scope) => scope.where('r.singleton_key', '=', key)),
  );
}

/** The read mark `p` the counts are examples over. */
const readMark = chatDb.selectFrom('room_members').select(['room_id as id', 'last_read_seq']).as('p');

export const examples: QueryExamples = {
  preferenceSelection: () => chatDb.selectFrom('room_members as m').select((eb) => preferenceSelection(eb)),
  unreadCount: () => chatDb.selectFrom(readMark).select((eb) => unreadCount(eb, example.id)),
  mentionCount: () => chatDb.selectFrom(readMark).select((eb) => mentionCount(eb, example.id)),
  roomQuery: () => roomQuery(example.id, (scope) => scope.where('r.channel_id', '=', example.otherId)),
  roomOf: (db) => roomOf(db, example.id, example.otherId),
  singletonRoomOf: (db) => singletonRoomOf(db, example.id, `self:${example.id}`),
};
