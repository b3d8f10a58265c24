// Statements shared by the thread operations, the thread facts of a scroll page and the reply path, typed over the
// entities. Unread counts are computed live from the rows (decision 5), so no counter can drift from what the rows say.
import { sql, type Expression, type InferResult } from 'kysely';
import { chatDb } from '../base/tables.js';
import { hiddenBy, hiddenForMe } from '../base/message-queries.js';
import { fixedStatement, slot } from '../../platform/db/fixed-statement.js';
import { firstRow, hotRows, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { messageSelection } from './message-selection.js';

const one = sql.lit(1).as('one');

/**
 * Number of replies of `root` that `account` has not read: above the read mark `mark`, not sent by the account,
 * not recalled, not hidden by the account. One range scan of messages_thread (thread_root_id, seq) from the mark.
 */
export function unreadReplies(root: Expression<string>, mark: Expression<number>, account: Expression<string> | string) {
  return chatDb
    .selectFrom('messages as r')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('r.thread_root_id', '=', root)
    .where('r.seq', '>', mark)
    .where('r.sender_id', '<>', account)
    .where('r.recalled_at', 'is', null)
    .where((eb) => eb.not(eb.exists(hiddenBy(account, eb.ref('r.id')))));
}

/** The roots of a room's or a page's threads: top-level messages with replies (the messages_active_threads rows). */
const threadRoots = () =>
  chatDb
    .selectFrom('messages as m')
    .select((eb) => [
      ...messageSelection(eb),
      'm.reply_count',
      // never null on a root with replies: the reply that counted set it
      eb.ref('m.last_reply_at').$castTo<Date>().as('last_reply_at'),
    ])
    .where('m.reply_count', '>', sql.lit(0))
    .where('m.thread_root_id', 'is', null);

type Roots = ReturnType<typeof threadRoots>;

/**
 * Thread roots (the rows of `roots`) with their facts from the view of `account`: hidden_for_me, following, unreadCount
 * and the newest reply the account did not hide.
 */
function threadFacts(account: string, roots: Roots) {
  return chatDb
    .with('t', () => roots)
    .selectFrom('t')
    .leftJoin('thread_follows as f', (join) => join.onRef('f.root_id', '=', 't.id').on('f.account_id', '=', account))
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('messages as r')
          .select(['r.id', 'r.sender_id', 'r.text', 'r.recalled_at', 'r.created_at'])
          .whereRef('r.thread_root_id', '=', 't.id')
          .where((eb) => eb.not(eb.exists(hiddenBy(account, eb.ref('r.id')))))
          .orderBy('r.seq', 'desc')
          .limit(sql.lit(1))
          .as('lr'),
      (join) => join.onTrue(),
    )
    .selectAll('t')
    .select((eb) => [
      hiddenForMe(account, 't'),
      sql<boolean>`coalesce(${eb('f.state', '=', sql.lit('FOLLOWING'))}, false)`.as('following'),
      unreadReplies(eb.ref('t.id'), eb.fn.coalesce('f.last_read_seq', sql.lit(0)), account)
        .$asScalar()
        .as('unread_count'),
      'lr.id as lr_id',
      'lr.sender_id as lr_sender_id',
      'lr.text as lr_text',
      'lr.recalled_at as lr_recalled_at',
      'lr.created_at as lr_created_at',
    ]);
}

/** A root with its thread facts, as threadList and threadFactsOf select it. */
export type ThreadFactsRow = InferResult<ReturnType<typeof threadFacts>>[number];

/** Active threads of `room` for `account`, newest reply first, `limit` rows, after the keyset `after` when paged. */
export async function threadList(db: Runner, account: string, room: string, limit: number, after: { at: Date; id: string } | null) {
  const roots = threadRoots()
    .where('m.room_id', '=', room)
    .$if(after !== null, (q) => q.where(sql<boolean>`(m.last_reply_at, m.id) < (${after!.at}::timestamptz, ${after!.id}::uuid)`))
    .orderBy('m.last_reply_at', 'desc')
    .orderBy('m.id', 'desc')
    .limit(limit);
  return rows(db, threadFacts(account, roots).orderBy('t.last_reply_at', 'desc').orderBy('t.id', 'desc'));
}

/** The roots among `ids` that have replies, with their facts from the view of `account`. */
export async function threadFactsOf(db: Runner, account: string, ids: string[]) {
  return rows(db, threadFacts(account, threadRoots().where(sql<boolean>`m.id = any(${ids}::uuid[])`)));
}

/** The values of a thread page, bound in this order. */
export interface ThreadPageValues extends Record<string, unknown> {
  root: string;
  caller: string;
  limit: number;
  bound?: number;
  room: string;
}

/**
 * The replies of a root with the page's checks in the same statement (one round trip): whether the caller is a
 * member of the room and whether the root is a top-level message of that room; the page's rows follow when both hold
 * (the scan does not run otherwise). The rows are the root's replies, `limit` from the newest back (or, forward, from
 * the oldest on), beyond seq `bound` when paged: one range scan of messages_thread (thread_root_id, seq). Every row
 * carries member and is_root; a page without replies is one row of nulls.
 */
function buildThreadPage(forward: boolean, paged: boolean) {
  const root = slot<string>('root');
  const caller = slot<string>('caller');
  const room = slot<string>('room');
  const query = chatDb
    .selectFrom(
      chatDb
        .selectNoFrom((eb) => [
          eb.exists(eb.selectFrom('room_members').select(one).where('room_id', '=', room).where('account_id', '=', caller)).as('member'),
          eb
            .selectFrom('messages')
            .select((eb) => eb('thread_root_id', 'is', null).$castTo<boolean>().as('top'))
            .where('id', '=', root)
            .where('room_id', '=', room)
            .$castTo<boolean | null>()
            .as('is_root'),
        ])
        .as('k'),
    )
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('messages as m')
          .select((eb) => [...messageSelection(eb), hiddenForMe(caller, 'm')])
          .where(sql<boolean>`k.member and k.is_root`)
          .where('m.thread_root_id', '=', root)
          .$if(paged, (q) => q.where('m.seq', forward ? '>' : '<', slot<number>('bound')))
          .orderBy('m.seq', forward ? 'asc' : 'desc')
          .limit(slot<number>('limit'))
          .as('p'),
      (join) => join.onTrue(),
    )
    .select(['k.member', 'k.is_root'])
    .selectAll('p');
  return fixedStatement<InferResult<typeof query>[number], ThreadPageValues>(query, [
    'root',
    'caller',
    'limit',
    ...(paged ? (['bound'] as const) : []),
    'room',
  ]);
}

const threadPages = new Map<string, ReturnType<typeof buildThreadPage>>();

/** The page statement of one shape (direction, bound or none), built once. */
function threadPageStatement(forward: boolean, paged: boolean) {
  const key = `${forward}:${paged}`;
  let statement = threadPages.get(key);
  if (!statement) threadPages.set(key, (statement = buildThreadPage(forward, paged)));
  return statement;
}

/** A page of a thread's replies with its checks (see buildThreadPage); forward from `bound`, or back, when paged. */
export async function threadPage(db: Runner, forward: boolean, values: ThreadPageValues) {
  return hotRows(db, threadPageStatement(forward, values.bound !== undefined).bind(values));
}

/** Threads `account` follows, in rooms it is still a member of, with at least one unread reply (decision 5). */
export async function unreadThreadCount(db: Runner, account: string): Promise<number> {
  const row = await firstRow(db, unreadThreadCountQuery(account));
  return row?.n ?? 0;
}

function unreadThreadCountQuery(account: string) {
  return chatDb
    .selectFrom('thread_follows as f')
    .innerJoin('room_members as rm', (join) => join.onRef('rm.room_id', '=', 'f.room_id').onRef('rm.account_id', '=', 'f.account_id'))
    .innerJoin('rooms as ro', (join) => join.onRef('ro.id', '=', 'f.room_id').on('ro.deleted_at', 'is', null))
    .select(sql<number>`count(*)::int`.as('n'))
    .where('f.account_id', '=', account)
    .where('f.state', '=', sql.lit('FOLLOWING'))
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('messages as r')
          .select(one)
          .whereRef('r.thread_root_id', '=', 'f.root_id')
          .whereRef('r.seq', '>', 'f.last_read_seq')
          .where('r.sender_id', '<>', account)
          .where('r.recalled_at', 'is', null)
          .where((eb) => eb.not(eb.exists(hiddenBy(account, eb.ref('r.id'))))),
      ),
    );
}

/** The payload audience of a per-user event (decision 6), for a payload built inside a typed statement. */
export function accountsAudience(account: Expression<string>) {
  return sql<unknown>`jsonb_build_object('kind', 'accounts', 'accountIds', jsonb_build_array(${account}))`;
}

export const examples: QueryExamples = {
  unreadReplies: () =>
    chatDb.selectFrom('messages').select(() => unreadReplies(sql.val(example.id), sql.val(0), example.otherId).$asScalar().as('n')),
  threadList: (db) => threadList(db, example.id, example.otherId, 21, { at: example.at, id: example.otherId }),
  threadFactsOf: (db) => threadFactsOf(db, example.id, [example.otherId]),
  threadPage: (db) => threadPage(db, false, { root: example.id, caller: example.otherId, limit: 51, bound: 10, room: example.otherId }),
  unreadThreadCount: (db) => unreadThreadCount(db, example.id),
  accountsAudience: () => chatDb.selectNoFrom(() => accountsAudience(sql.val(example.id)).as('audience')),
};
