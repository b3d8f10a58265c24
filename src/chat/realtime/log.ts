// The per-account event log (docs/realtime.md). The outbox relay numbers every event for each of its recipients in
// its own transaction, so an event is in a recipient's log exactly once, with seq one above the previous; sockets
// are told after the commit, and whatever they miss is read back from here.
import { sql, type Expression } from 'kysely';
import { withIndexScans, type SqlClient, type SqlPool } from '../../platform/db/sql.js';
import { firstRow, hotRows, rows as allRows } from '../../platform/db/typed.js';
import { chatDb } from '../base/tables.js';
import { addAudience, emptyAudience, type AudienceArrays } from './audience.js';
import { withViews } from './event-views.js';

export interface UserEvent {
  seq: number;
  eventId: string;
  topic: string;
  createdAt: string;
  payload: unknown;
}

/** One relayed event with the seq it got in each recipient's log. */
export interface Delivery {
  id: string;
  topic: string;
  createdAt: string;
  payload: unknown;
  /** [accountId, seq] per recipient. */
  to: Array<[string, number]>;
  /** The producer's W3C traceparent, which the delivery's span links to. */
  traceContext?: string;
}

export interface OutboxEvent {
  id: number;
  topic: string;
  payload: unknown;
  created_at: Date;
}

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
 * Writes the log rows of a batch of outbox events, in id order, inside the relay's transaction; returns the
 * deliveries to announce once it commits. The views events carry (event-views.ts) are built first, once per event;
 * then one statement whatever the batch: the recipients of every event (room and channel members and named accounts
 * as they are now, USER accounts for broadcasts), numbered per account, and the logged payloads.
 */
export async function recordUserEvents(client: SqlClient, events: OutboxEvent[]): Promise<Delivery[]> {
  const a = emptyAudience();
  const found = events.filter((e) => addAudience(a, Number(e.id), e.payload));
  if (found.length === 0) return [];
  const addressed = await withViews(client, found);
  const viewed = addressed.filter((e, i) => e.payload !== found[i]!.payload);
  const statement = logStatement(
    a,
    viewed.map((e) => Number(e.id)),
    viewed.map((e) => JSON.stringify(e.payload)),
  );
  // Each recipient's newest seq is a probe of user_events while the statement inserts into it.
  const rows = await withIndexScans(client, () => hotRows(client, statement));
  const byEvent = new Map<number, Array<[string, number]>>();
  for (const r of rows) {
    const list = byEvent.get(Number(r.event_id));
    if (list) list.push([r.account_id, Number(r.seq)]);
    else byEvent.set(Number(r.event_id), [[r.account_id, Number(r.seq)]]);
  }
  return addressed.flatMap((e) => {
    const to = byEvent.get(Number(e.id));
    return to ? [{ id: String(e.id), topic: e.topic, createdAt: e.created_at.toISOString(), payload: e.payload, to }] : [];
  });
}

export interface LogPage {
  events: UserEvent[];
  hasMore: boolean;
  /** The account's newest seq (0 when it has none). */
  lastSeq: number;
  /** True when events after `after` were pruned: the page cannot continue the stream. */
  expired: boolean;
}

/**
 * Events of one account with seq > after, oldest first. The page and the newest seq come from one statement, so from
 * one snapshot: read apart, an event committed between the two reads made an empty page look like a pruned past.
 */
export async function readUserEvents(db: SqlPool | SqlClient, accountId: string, after: number, limit: number): Promise<LogPage> {
  const found = await allRows(
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
  const lastSeq = Number(found[0]?.last_seq ?? 0);
  const rows = found.flatMap((r) =>
    r.seq === null ? [] : [{ seq: r.seq, event_id: r.event_id!, topic: r.topic!, created_at: r.created_at!, payload: r.payload }],
  );
  // The log has no holes but the pruned past: a first row above after + 1 (or none while the counter is ahead)
  // means the events in between are gone. Pruning goes by event time, which may leave a later seq of a slow
  // transaction's event behind: a page stops before any hole, and the next page finds it expired.
  let page = rows.slice(0, limit);
  const hole = page.findIndex((r, i) => Number(r.seq) !== after + 1 + i);
  const expired = after < lastSeq && (page.length === 0 || hole === 0);
  if (hole > 0) page = page.slice(0, hole);
  return {
    events: expired
      ? []
      : page.map((r) => ({
          seq: Number(r.seq),
          eventId: String(r.event_id),
          topic: r.topic,
          createdAt: r.created_at.toISOString(),
          payload: r.payload,
        })),
    hasMore: !expired && (hole > 0 || rows.length > limit),
    lastSeq,
    expired,
  };
}

export async function lastSeqOf(db: SqlPool | SqlClient, accountId: string): Promise<number> {
  const row = await firstRow(db, newestSeq(sql.val(accountId)));
  return Number(row?.seq ?? 0);
}

/** The newest seq of each of these accounts that has any. */
export async function lastSeqsOf(db: SqlPool, accountIds: string[]): Promise<Map<string, number>> {
  const rows = await allRows(
    db,
    chatDb
      .selectFrom(sql<{ id: string }>`unnest(${accountIds}::uuid[])`.as<'a'>(sql`a(id)`))
      .select((eb) => ['a.id', newestSeq(eb.ref('a.id')).$asScalar().as('last_seq')]),
  );
  return new Map(rows.filter((r) => r.last_seq !== null).map((r) => [r.id, Number(r.last_seq)]));
}
