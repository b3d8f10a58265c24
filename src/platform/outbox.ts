// Domain events are written to the outbox table in the same transaction as the change that caused them
// (./outbox-writer.ts); the relay publishes them to Redis pub/sub (realtime fan-out on every node) and marks them published.
import { sql as fragment } from 'kysely';
import { commitAfter, lockSession, rollbackQuietly, unlockSession, type SqlClient, type SqlPool } from './db/sql.js';
import { affected, hotRows, typedQueries, type TablesOf } from './db/typed.js';
import type { OutboxEntity } from './db/entities.js';
import type { Redis } from './redis.js';
import { observeOutboxDrain } from './outbox-metrics.js';

const outboxDb = typedQueries<TablesOf<typeof OutboxEntity>>();

/** The Redis pub/sub channel every relayed domain event is published on. */
export const eventsChannel = 'platform:events';

export interface RelayedEvent {
  id: string;
  topic: string;
  payload: unknown;
  createdAt: string;
}

/** The batch's rows in id order, oldest first; trace_context is the producer's W3C traceparent (null when tracing was off). */
const unpublishedBatch = (batch: number) =>
  outboxDb
    .selectFrom('outbox')
    .select(['id', 'topic', 'payload', 'created_at', 'trace_context'])
    .where('published_at', 'is', null)
    .orderBy('id')
    .limit(batch)
    .forUpdate()
    .skipLocked();

export type OutboxRow = Awaited<ReturnType<ReturnType<typeof unpublishedBatch>['execute']>>[number];

/** Marks the batch published. The ids are bigint values read from the table, written as one literal array. */
const markPublished = (ids: readonly number[]) =>
  outboxDb
    .updateTable('outbox')
    .set({ published_at: fragment<Date>`now()` })
    .where('id', '=', fragment<number>`any(${fragment.lit(`{${ids.map(Number).join(',')}}`)}::bigint[])`)
    .compile();

/** Session-level advisory lock that serialises relays across nodes, so that per-account seqs follow id order. */
export const RELAY_LOCK = 0x6f757462;

/**
 * A durable consumer of the outbox (bot updates, webhook deliveries): it sees every batch inside the drain's
 * transaction (its writes commit with the rows being marked published, so each row is consumed exactly once, or
 * the batch is drained again) and may return work to run after the commit.
 */
export type OutboxConsumer = (client: SqlClient, rows: readonly OutboxRow[]) => Promise<(() => Promise<void>) | undefined>;

/**
 * An ordered log of the outbox (the realtime per-account event log): it records a batch inside the drain's transaction,
 * before the consumers, and returns the announcement to make after the commit while the relay lock is still held, so
 * that announcements follow the log's order across nodes.
 */
export type OutboxLog = (client: SqlClient, rows: readonly OutboxRow[], redis: Redis) => Promise<() => Promise<void>>;

/** What a drain hands its batches to, registered by the features that consume events. */
export interface OutboxReaders {
  logs?: readonly OutboxLog[];
  consumers?: readonly OutboxConsumer[];
}

/**
 * Publishes up to `batch` unpublished events in id order, and records each in the ordered logs (the realtime event log
 * of its recipients) in the same transaction; returns how many were published. One relay runs at a
 * time (an advisory lock held until the logs' announcements are made, after the commit), and rows are locked
 * with SKIP LOCKED besides, so that relays on several nodes never publish the same row twice. Consumers (bot
 * updates, webhook deliveries) work on the batch inside the same transaction; what they return runs after the commit.
 */
export async function drainOutbox(sql: SqlPool, redis: Redis, batch = 500, readers: OutboxReaders = {}): Promise<number> {
  const { logs = [], consumers = [] } = readers;
  const client = await sql.connect();
  const afterCommit: Array<() => Promise<void>> = [];
  let published = 0;
  try {
    // Statements without parameters share a round trip: this runs on the path from a commit to the sockets.
    await lockSession(client, RELAY_LOCK, { begin: true });
    const announcements: Array<() => Promise<void>> = [];
    try {
      const rows = await hotRows(client, unpublishedBatch(batch));
      if (rows.length > 0) {
        for (const log of logs) announcements.push(await log(client, rows, redis));
        const events = rows.map((row): RelayedEvent => ({
          id: String(row.id),
          topic: row.topic,
          payload: row.payload,
          createdAt: row.created_at.toISOString(),
        }));
        for (const consume of consumers) {
          const after = await consume(client, rows);
          if (after) afterCommit.push(after);
        }
        const pipeline = redis.pipeline();
        for (const event of events) pipeline.publish(eventsChannel, JSON.stringify(event));
        await pipeline.exec();
        published = rows.length;
      }
      await commitAfter(client, rows.length > 0 ? markPublished(rows.map((r) => r.id)) : undefined);
    } catch (err) {
      await rollbackQuietly(client);
      throw err;
    }
    // After the commit: a node that hears of a seq finds it in the log. A lost announcement shows as a gap on the
    // next one, or in the gateway's periodic check, and is read back from the log.
    for (const announce of announcements) await announce();
  } finally {
    // Also after a failure midway (unlocking a lock not held is harmless). A connection that may still hold the lock
    // is closed rather than pooled: closing releases it.
    const unlocked = await unlockSession(client, RELAY_LOCK).then(
      () => true,
      () => false,
    );
    client.release(!unlocked);
  }
  for (const after of afterCommit) await after();
  observeOutboxDrain(published);
  return published;
}

/** Published rows are kept a day for inspection, then removed. */
export async function pruneOutbox(sql: SqlPool): Promise<number> {
  return affected(sql, outboxDb.deleteFrom('outbox').where('published_at', '<', fragment<Date>`now() - interval '1 day'`));
}
