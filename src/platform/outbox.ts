// Domain events are written to the outbox table in the same transaction as the change that caused them;
// the relay publishes them to Redis pub/sub (realtime fan-out on every node) and marks them published.
import type { EntityManager } from './db/orm.js';
import type { SqlPool } from './db/sql.js';
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

interface OutboxRow {
  id: number;
  topic: string;
  payload: unknown;
  created_at: Date;
}

/**
 * Publishes up to `batch` unpublished events in id order. Rows are locked with SKIP LOCKED so that relays
 * on several nodes never publish the same row twice; returns how many were published. Three round trips: the
 * rows are claimed and marked in one statement, published, then the mark is committed, so a relay that dies
 * before its commit leaves them to be published again (at least once). The commit does not wait for its WAL
 * flush: a mark lost in a crash only means those events are published again, and the sends' own commits do
 * not queue behind the relay's.
 */
export async function drainOutbox(sql: SqlPool, redis: Redis, batch = 500): Promise<number> {
  const client = await sql.connect();
  try {
    // One round trip: both statements in one simple query.
    await client.query('begin; set local synchronous_commit to off');
    const { rows } = await client.query<OutboxRow>(
      `update outbox set published_at = now()
        where id = any(array(select id from outbox where published_at is null order by id limit $1 for update skip locked))
       returning id, topic, payload, created_at`,
      [batch],
    );
    if (rows.length === 0) {
      await client.query('commit');
      return 0;
    }
    rows.sort((a, b) => a.id - b.id);
    const pipeline = redis.pipeline();
    for (const row of rows) {
      const event: RelayedEvent = { id: String(row.id), topic: row.topic, payload: row.payload, createdAt: row.created_at.toISOString() };
      pipeline.publish(eventsChannel, JSON.stringify(event));
    }
    const results = await pipeline.exec();
    const failed = results?.find(([err]) => err);
    if (failed) throw failed[0];
    await client.query('commit');
    return rows.length;
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Published rows are kept a day for inspection, then removed. */
export async function pruneOutbox(sql: SqlPool): Promise<number> {
  const res = await sql.query("delete from outbox where published_at < now() - interval '1 day'");
  return res.rowCount ?? 0;
}
