// The per-account event log (docs/realtime.md). The outbox relay numbers every event for each of its recipients in
// its own transaction, so an event is in a recipient's log exactly once, with seq one above the previous; sockets
// are told after the commit, and whatever they miss is read back from here.
import type { SqlClient, SqlPool } from '../../platform/db/sql.js';
import { addAudience, emptyAudience } from './audience.js';
import { withViews } from './event-views.js';
import { prepared } from '../../platform/db/prepared.js';

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
  const { rows } = await client.query<{ event_id: number; account_id: string; seq: number }>(
    prepared(
      `with rcpt as (
       select distinct x.event_id, x.account_id from (
         select r.event_id, m.account_id from unnest($1::bigint[], $2::uuid[]) r(event_id, room_id)
           join room_members m on m.room_id = r.room_id
         union all
         select c.event_id, cm.account_id from unnest($3::bigint[], $4::uuid[]) c(event_id, channel_id)
           join channel_members cm on cm.channel_id = c.channel_id
         union all
         select n.event_id, acc.id from unnest($5::bigint[], $6::uuid[]) n(event_id, account_id)
           join accounts acc on acc.id = n.account_id
         union all
         select b.event_id, acc.id from unnest($7::bigint[]) b(event_id)
           join accounts acc on acc.account_type = 'USER'
         union all
         select b.event_id, acc.id from unnest($8::bigint[], $9::text[]) b(event_id, module_code)
           join accounts acc on acc.module_code = b.module_code and acc.account_type = 'USER'
       ) x
     ),
     numbered as (
       select event_id, account_id, row_number() over (partition by account_id order by event_id) as n,
              count(*) over (partition by account_id) as total
         from rcpt
     ),
     logged as (
       insert into event_log (id, topic, payload, created_at)
       select o.id, o.topic, coalesce(v.payload, o.payload), o.created_at
         from outbox o left join unnest($10::bigint[], $11::jsonb[]) v(id, payload) on v.id = o.id
        where o.id in (select event_id from rcpt)
       on conflict (id) do nothing
     ),
     bumped as (
       insert into user_event_counters (account_id, last_seq)
       select account_id, max(total) from numbered group by account_id
       on conflict (account_id) do update set last_seq = user_event_counters.last_seq + excluded.last_seq
       returning account_id, last_seq
     )
     insert into user_events (account_id, seq, event_id)
     select n.account_id, b.last_seq - n.total + n.n, n.event_id from numbered n join bumped b using (account_id)
     returning event_id, account_id, seq`,
      [
        a.roomEvents,
        a.roomIds,
        a.channelEvents,
        a.channelIds,
        a.accountEvents,
        a.accountIds,
        a.everyoneEvents,
        a.moduleEvents,
        a.moduleCodes,
        viewed.map((e) => Number(e.id)),
        viewed.map((e) => JSON.stringify(e.payload)),
      ],
    ),
  );
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

/** Events of one account with seq > after, oldest first. */
export async function readUserEvents(sql: SqlPool | SqlClient, accountId: string, after: number, limit: number): Promise<LogPage> {
  const { rows } = await sql.query<{
    seq: number;
    event_id: number;
    topic: string;
    created_at: Date;
    payload: unknown;
    last_seq: number | null;
  }>(
    `select u.seq, u.event_id, e.topic, e.created_at, e.payload,
            (select last_seq from user_event_counters where account_id = $1) as last_seq
       from user_events u join event_log e on e.id = u.event_id
      where u.account_id = $1 and u.seq > $2
      order by u.seq limit $3`,
    [accountId, after, limit + 1],
  );
  const lastSeq = rows.length > 0 ? Number(rows[0]!.last_seq ?? 0) : await lastSeqOf(sql, accountId);
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

export async function lastSeqOf(sql: SqlPool | SqlClient, accountId: string): Promise<number> {
  const { rows } = await sql.query<{ last_seq: number }>('select last_seq from user_event_counters where account_id = $1', [accountId]);
  return Number(rows[0]?.last_seq ?? 0);
}

/** The newest seq of each of these accounts that has any. */
export async function lastSeqsOf(sql: SqlPool, accountIds: string[]): Promise<Map<string, number>> {
  const { rows } = await sql.query<{ account_id: string; last_seq: number }>(
    'select account_id, last_seq from user_event_counters where account_id = any($1::uuid[])',
    [accountIds],
  );
  return new Map(rows.map((r) => [r.account_id, Number(r.last_seq)]));
}

/**
 * Removes log entries older than the retention window, a slice at a time so that no statement holds locks for
 * long; returns how many events were removed.
 */
export async function pruneEventLog(sql: SqlPool, retentionHours: number, now: Date, slice = 5_000): Promise<number> {
  let removed = 0;
  for (;;) {
    const { rows } = await sql.query<{ id: number }>(
      `select id from event_log where created_at < $1::timestamptz - make_interval(hours => $2::int) order by id limit $3`,
      [now, retentionHours, slice],
    );
    if (rows.length === 0) return removed;
    const ids = rows.map((r) => r.id);
    await sql.query('delete from user_events where event_id = any($1::bigint[])', [ids]);
    await sql.query('delete from event_log where id = any($1::bigint[])', [ids]);
    removed += ids.length;
    if (rows.length < slice) return removed;
  }
}
