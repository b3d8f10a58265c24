// The statements of the per-account event log: the relay's one write per batch and the reads of a log.
import { sql, type Expression } from 'kysely';
import { withIndexScans, type SqlClient, type SqlPool } from '../../platform/db/sql.js';
import { firstRow, hotRows, rows, type Runner } from '../../platform/db/typed.js';
import { example, type QueryExamples } from '../../platform/db/query-examples.js';
import { chatDb } from '../base/tables.js';
import { emptyAudience, type AudienceArrays } from './audience.js';

/**
 * The recipients of every event of a batch, once each: room and channel members and named accounts as they are now,
 * USER accounts for broadcasts.
 */
function recipients(a: AudienceArrays) {
  const user = sql.lit('USER');
  return chatDb
    .selectFrom(
      chatDb
        .selectFrom(
          sql<{ event_id: number; room_id: string }>`unnest(${a.roomEvents}::bigint[], ${a.roomIds}::uuid[])`.as<'r'>(
            sql`r(event_id, room_id)`,
          ),
        )
        .innerJoin('room_members as m', 'm.room_id', 'r.room_id')
        .select(['r.event_id', 'm.account_id'])
        .unionAll(
          chatDb
            .selectFrom(
              sql<{ event_id: number; channel_id: string }>`unnest(${a.channelEvents}::bigint[], ${a.channelIds}::uuid[])`.as<'c'>(
                sql`c(event_id, channel_id)`,
              ),
            )
            .innerJoin('channel_members as cm', 'cm.channel_id', 'c.channel_id')
            .select(['c.event_id', 'cm.account_id']),
        )
        .unionAll(
          chatDb
            .selectFrom(
              sql<{ event_id: number; account_id: string }>`unnest(${a.accountEvents}::bigint[], ${a.accountIds}::uuid[])`.as<'n'>(
                sql`n(event_id, account_id)`,
              ),
            )
            .innerJoin('accounts as acc', 'acc.id', 'n.account_id')
            .select(['n.event_id', 'acc.id as account_id']),
        )
        .unionAll(
          chatDb
            .selectFrom(sql<{ event_id: number }>`unnest(${a.everyoneEvents}::bigint[])`.as<'b'>(sql`b(event_id)`))
            .innerJoin('accounts as acc', (join) => join.on('acc.account_type', '=', user))
            .select(['b.event_id', 'acc.id as account_id']),
        )
        .unionAll(
          chatDb
            .selectFrom(
              sql<{ event_id: number; module_code: string }>`unnest(${a.moduleEvents}::bigint[], ${a.moduleCodes}::text[])`.as<'b'>(
                sql`b(event_id, module_code)`,
              ),
            )
            .innerJoin('accounts as acc', (join) => join.onRef('acc.module_code', '=', 'b.module_code').on('acc.account_type', '=', user))
            .select(['b.event_id', 'acc.id as account_id']),
        )
        .as('x'),
    )
    .select(['x.event_id', 'x.account_id'])
    .distinct();
}

/** An account's newest seq: its log's newest row, which pruning keeps (one backward probe of the primary key). */
function newestSeq(accountId: Expression<string>) {
  return chatDb
    .selectFrom('user_events as last')
    .select((eb) => eb.fn.max('last.seq').as('seq'))
    .where('last.account_id', '=', accountId);
}

/**
 * The one statement of recordUserEvents: its text depends on no value (the arrays are parameters), so it runs as a
 * named prepared statement on the relay's path from a commit to the sockets.
 */
function logStatement(a: AudienceArrays, viewedIds: number[], viewedPayloads: string[]) {
  return chatDb
    .with('rcpt', () => recipients(a))
    .with('numbered', (db) =>
      db
        .selectFrom('rcpt')
        .select(['event_id', 'account_id', sql<number>`row_number() over (partition by account_id order by event_id)`.as('n')]),
    )
    .with('logged', (db) =>
      db
        .insertInto('event_log')
        .columns(['id', 'topic', 'payload', 'created_at'])
        .expression(
          db
            .selectFrom('outbox as o')
            .leftJoin(
              sql<{ id: number; payload: unknown }>`unnest(${viewedIds}::bigint[], ${viewedPayloads}::jsonb[])`.as<'v'>(
                sql`v(id, payload)`,
              ),
              'v.id',
              'o.id',
            )
            .select(['o.id', 'o.topic', sql<unknown>`coalesce(v.payload, o.payload)`.as('payload'), 'o.created_at'])
            .where('o.id', 'in', db.selectFrom('rcpt').select('event_id')),
        )
        .onConflict((oc) => oc.column('id').doNothing()),
    )
    .insertInto('user_events')
    .columns(['account_id', 'seq', 'event_id'])
    .expression((eb) =>
      eb
        .selectFrom('numbered as n')
        // The statement does not see its own rows: every probe finds the newest seq from before it.
        .select((n) => ['n.account_id', sql<number>`coalesce(${newestSeq(n.ref('n.account_id'))}, 0) + n.n`.as('seq'), 'n.event_id']),
    )
    .returning(['event_id', 'account_id', 'seq']);
}

/**
 * Numbers a batch's events in each recipient's log and logs their payloads (`viewedPayloads` replace the outbox's
 * payloads of `viewedIds`); returns each [event, account, seq].
 */
export async function logUserEvents(client: SqlClient, a: AudienceArrays, viewedIds: number[], viewedPayloads: string[]) {
  const statement = logStatement(a, viewedIds, viewedPayloads);
  // Each recipient's newest seq is a probe of user_events while the statement inserts into it.
  return withIndexScans(client, () => hotRows(client, statement));
}

/**
 * Up to `limit` + 1 log rows of the account after seq `after`, each beside the account's newest seq; one row with no
 * event when there is none. One statement, so one snapshot.
 */
export async function userEventPage(db: Runner, accountId: string, after: number, limit: number) {
  return rows(
    db,
    chatDb
      .selectFrom(newestSeq(sql.val(accountId)).as('l'))
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('user_events as u')
            .innerJoin('event_log as e', 'e.id', 'u.event_id')
            .select(['u.seq', 'u.event_id', 'e.topic', 'e.created_at', 'e.payload'])
            .where('u.account_id', '=', accountId)
            .where('u.seq', '>', after)
            .orderBy('u.seq')
            .limit(limit + 1)
            .as('x'),
        (join) => join.onTrue(),
      )
      .select(['l.seq as last_seq', 'x.seq', 'x.event_id', 'x.topic', 'x.created_at', 'x.payload'])
      .orderBy('x.seq'),
  );
}

/** The account's newest seq, null when its log is empty. */
export async function newestSeqOf(db: Runner, accountId: string) {
  return (await firstRow(db, newestSeq(sql.val(accountId))))?.seq ?? null;
}

/** The newest seq of each account (null for an empty log). */
export async function newestSeqsOf(db: SqlPool, accountIds: string[]) {
  return rows(
    db,
    chatDb
      .selectFrom(sql<{ id: string }>`unnest(${accountIds}::uuid[])`.as<'a'>(sql`a(id)`))
      .select((eb) => ['a.id', newestSeq(eb.ref('a.id')).$asScalar().as('last_seq')]),
  );
}

const audience: AudienceArrays = {
  ...emptyAudience(),
  roomEvents: [1],
  roomIds: [example.id],
};

export const examples: QueryExamples = {
  logUserEvents: (db) => logUserEvents(db, audience, [1], ['{}']),
  userEventPage: (db) => userEventPage(db, example.id, 0, 100),
  newestSeqOf: (db) => newestSeqOf(db, example.id),
  newestSeqsOf: (db) => newestSeqsOf(db, [example.id]),
};
