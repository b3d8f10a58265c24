// The per-account event log (docs/realtime.md). The outbox relay numbers every event for each of its recipients in
// its own transaction, so an event is in a recipient's log exactly once, with seq one above the previous; sockets
// are told after the commit, and whatever they miss is read back from here.
import type { SqlClient, SqlPool } from '../../platform/db/sql.js';
import { addAudience, emptyAudience } from './audience.js';
import { withViews } from './event-views.js';
import { logUserEvents, newestSeqOf, newestSeqsOf, userEventPage } from './log-queries.js';

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
  const rows = await logUserEvents(
    client,
    a,
    viewed.map((e) => Number(e.id)),
    viewed.map((e) => JSON.stringify(e.payload)),
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

/**
 * Events of one account with seq > after, oldest first. The page and the newest seq come from one statement, so from
 * one snapshot: read apart, an event committed between the two reads made an empty page look like a pruned past.
 */
export async function readUserEvents(db: SqlPool | SqlClient, accountId: string, after: number, limit: number): Promise<LogPage> {
  const found = await userEventPage(db, accountId, after, limit);
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
  return Number((await newestSeqOf(db, accountId)) ?? 0);
}

/** The newest seq of each of these accounts that has any. */
export async function lastSeqsOf(db: SqlPool, accountIds: string[]): Promise<Map<string, number>> {
  const rows = await newestSeqsOf(db, accountIds);
  return new Map(rows.filter((r) => r.last_seq !== null).map((r) => [r.id, Number(r.last_seq)]));
}
