// The statement of a room's history page: the membership check and the keyset scan on (room_id, seq) in one.
import { sql, type Expression, type ExpressionBuilder, type InferResult } from 'kysely';
import { fixedStatement, slot } from '../../platform/db/fixed-statement.js';
import { hotRows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { messageColumnNames } from '../base/message-views.js';
import { hiddenForMe } from '../base/message-queries.js';
import { chatDb, type ChatTables } from '../base/tables.js';

/** Rooms up to this many members show a read count per message (docs/adr/0154-read-receipts.md). */
export const readCountMembersMax = 100;

/**
 * Whether the page counts readers: the room has at most readCountMembersMax members (its kept count, one key
 * lookup) and the caller shares its read receipts (who does not sees no one's).
 */
function countsReads(eb: ExpressionBuilder<ChatTables, never>, room: Expression<string>, caller: Expression<string>) {
  const small = eb(eb.selectFrom('rooms').select('member_count').where('id', '=', room).$asScalar(), '<=', sql.lit(readCountMembersMax));
  const shares = eb.fn.coalesce(
    eb.selectFrom('receipt_settings').select('share_read_receipts').where('account_id', '=', caller).$asScalar(),
    sql<boolean>`true`,
  );
  return eb.and([small, eb(shares, '=', sql.lit(true))]);
}

/**
 * The room's readers, once per page: the marks (and, in the same order, the accounts) of the members who moved their
 * read mark and share their receipts; null when the page does not count. Each row then counts from these arrays
 * instead of reading the room's members again.
 */
function readers(room: Expression<string>, column: 'last_read_seq' | 'account_id') {
  return chatDb
    .selectFrom('room_members as rm')
    .leftJoin('receipt_settings as rs', 'rs.account_id', 'rm.account_id')
    .select(sql<unknown[]>`array_agg(${sql.ref(`rm.${column}`)} order by rm.account_id)`.as('a'))
    .where('rm.room_id', '=', room)
    .where('rm.last_read_at', 'is not', null)
    .where((x) => x.fn.coalesce('rs.share_read_receipts', sql<boolean>`true`), '=', sql.lit(true))
    .$asScalar();
}

/** Page row q's readers other than its sender whose mark is at or past it, from the page's arrays (k). */
const readCount = sql<number>`(select count(*)::int from unnest(k.reader_ids, k.reader_seqs) as r(id, seq) where r.seq >= q.seq and r.id <> q.sender_id)`;

/** The largest page the API serves (limit 1 to 100). */
const MAX_PAGE = 100;

/** The values of a scroll page, bound in this order. */
export interface ScrollValues extends Record<string, unknown> {
  room: string;
  limit: number;
  caller: string;
  bound?: number;
}

const scrollStatements = new Map<string, ReturnType<typeof buildScroll>>();

/** The page statement of one scroll shape (direction, view, bound or none), built once. */
function scrollStatement(forward: boolean, topLevelOnly: boolean, bounded: boolean) {
  const key = `${forward}:${topLevelOnly}:${bounded}`;
  let statement = scrollStatements.get(key);
  if (!statement) scrollStatements.set(key, (statement = buildScroll(forward, topLevelOnly, bounded)));
  return statement;
}

/**
 * The scan's own limit is a constant and the page's limit is applied above it: the statement is prepared, and with
 * a parameter as its only limit the planner prices the generic plan as reading a tenth of the room, finds a custom
 * plan cheaper and plans the statement afresh on every call.
 */
function buildScroll(forward: boolean, topLevelOnly: boolean, bounded: boolean) {
  const room = slot<string>('room');
  const caller = slot<string>('caller');
  const bound = slot<number>('bound');
  const order = forward ? 'asc' : 'desc';
  // The caller's standing and the room's readers (when the page counts), computed once for the page.
  const standing = chatDb
    .selectNoFrom((eb) =>
      eb
        .exists(eb.selectFrom('room_members').select(sql.lit(1).as('one')).where('room_id', '=', room).where('account_id', '=', caller))
        .as('member'),
    )
    .select((eb) => countsReads(eb, room, caller).as('counted'))
    .as('c');
  const page = chatDb
    .selectFrom(standing)
    .select((eb) => [
      'c.member',
      'c.counted',
      eb
        .case()
        .when(sql<boolean>`c.counted`)
        .then(readers(room, 'account_id'))
        .end()
        .as('reader_ids'),
      eb
        .case()
        .when(sql<boolean>`c.counted`)
        .then(readers(room, 'last_read_seq'))
        .end()
        .as('reader_seqs'),
    ])
    .as('k');
  const query = chatDb
    .selectFrom(page)
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom((eb) =>
            eb
              .selectFrom('messages')
              .select([...messageColumnNames, 'reply_count', hiddenForMe(caller)])
              .where(sql<boolean>`k.member`)
              .where('room_id', '=', room)
              .$if(topLevelOnly, (q) => q.where('thread_root_id', 'is', null))
              .$if(bounded, (q) => q.where('seq', forward ? '>' : '<', bound))
              .orderBy('seq', order)
              .limit(sql.lit(MAX_PAGE + 1))
              .as('q'),
          )
          .selectAll('q')
          .select((eb) =>
            eb
              .case()
              .when(sql<boolean>`k.counted`)
              .then(readCount)
              .end()
              .as('read_count'),
          )
          .orderBy('q.seq', order)
          .limit(slot<number>('limit'))
          .as('p'),
      (join) => join.onTrue(),
    )
    .select('k.member')
    .selectAll('p');
  return fixedStatement<InferResult<typeof query>[number], ScrollValues>(query, [
    'room',
    'limit',
    'caller',
    ...(bounded ? (['bound'] as const) : []),
  ]);
}

/**
 * A page of the room's history (whole, or top-level only), forward from `bound` or back from it (or from the end),
 * as a named prepared statement: one row per message with `member`, or one row of nulls but `member` when there is
 * none; `member` false and no scan for a non-member.
 */
export async function historyPage(db: Runner, shape: { forward: boolean; topLevelOnly: boolean }, values: ScrollValues) {
  return hotRows(db, scrollStatement(shape.forward, shape.topLevelOnly, values.bound !== undefined).bind(values));
}

export const examples: QueryExamples = {
  historyPage: (db) =>
    historyPage(db, { forward: false, topLevelOnly: true }, { room: example.id, limit: 51, caller: example.otherId, bound: 10 }),
};
