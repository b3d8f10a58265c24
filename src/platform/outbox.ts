// Domain events are written to the outbox table in the same transaction as the change that caused them;
// the relay publishes them to Redis pub/sub (realtime fan-out on every node) and marks them published.
import type { EntityManager } from './db/orm.js';
import { inTransaction, type SqlClient, type SqlPool } from './db/sql.js';
import type { Redis } from './redis.js';

/** The Redis pub/sub channel every relayed domain event is published on. */
export const eventsChannel = 'platform:events';

export interface RelayedEvent {
  id: string;
  topic: string;
  payload: unknown;
  createdAt: string;
}

export async function appendOutbox(em: EntityManager, topic: string, payload: unknown): Promise<void> {
  await em.getConnection().execute('insert into outbox (topic, payload) values (?, ?::jsonb)', [topic, JSON.stringify(payload)]);
}

export interface OutboxRow {
  id: number;
  topic: string;
  payload: unknown;
  created_at: Date;
}

/**
 * A durable consumer of the outbox: it sees every batch inside the drain's transaction (its writes commit with the
 * rows being marked published, so each row is consumed exactly once) and may return work to run after commit.
 */
export type OutboxConsumer = (client: SqlClient, rows: readonly OutboxRow[]) => Promise<(() => Promise<void>) | undefined>;

/**
 * Publishes up to `batch` unpublished events in id order. Rows are locked with SKIP LOCKED so that relays
 * on several nodes never publish the same row twice; returns how many were published.
 */
export async function drainOutbox(sql: SqlPool, redis: Redis, batch = 500, consumers: readonly OutboxConsumer[] = []): Promise<number> {
  const afterCommit: Array<() => Promise<void>> = [];
  const published = await inTransaction(sql, async (client) => {
    const { rows } = await client.query<OutboxRow>(
      'select id, topic, payload, created_at from outbox where published_at is null order by id limit $1 for update skip locked',
      [batch],
    );
    if (rows.length === 0) return 0;
    // Consumers first: if one fails, nothing has been published yet and the whole batch is retried.
    for (const consume of consumers) {
      const after = await consume(client, rows);
      if (after) afterCommit.push(after);
    }
    const pipeline = redis.pipeline();
    for (const row of rows) {
      const event: RelayedEvent = { id: String(row.id), topic: row.topic, payload: row.payload, createdAt: row.created_at.toISOString() };
      pipeline.publish(eventsChannel, JSON.stringify(event));
    }
    await pipeline.exec();
    await client.query('update outbox set published_at = now() where id = any($1::bigint[])', [rows.map((r) => r.id)]);
    return rows.length;
  });
  for (const run of afterCommit) await run();
  return published;
}

/** Published rows are kept a day for inspection, then removed. */
export async function pruneOutbox(sql: SqlPool): Promise<number> {
  const res = await sql.query("delete from outbox where published_at < now() - interval '1 day'");
  return res.rowCount ?? 0;
}
