// The one place that writes outbox rows. Every event is inserted in the transaction of the change it reports (the
// relay in ./outbox.ts publishes it after the commit); the layers above type their topics and payloads and call these.
// Topics are plain strings here: the platform knows no feature's events.
import type { EntityManager } from './db/orm.js';
import type { Queryable } from './db/queryable.js';
import { OutboxEntity } from './db/entities.js';

/** One event to write: its topic and its payload (stored as jsonb). */
export interface OutboxEntry {
  topic: string;
  payload: unknown;
}

/**
 * The head of an outbox insert, for statements that write their events in the same round trip as the change
 * (a CTE of the send, reply and forward statements): follow it with `values (...)` or `select topic, payload ...`.
 */
export const outboxInsertSql = 'insert into outbox (topic, payload)';

const topicShape = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/**
 * A topic as an SQL string literal, for the fragments above. Topics are fixed names from the code, never input;
 * the shape check keeps a quote from ever reaching the statement text.
 */
export function outboxTopicSql(topic: string): string {
  if (!topicShape.test(topic)) throw new Error(`not an outbox topic: ${topic}`);
  return `'${topic}'`;
}

/** Writes one event on `db`, which must be the transaction of the change. */
export async function writeOutbox(db: Queryable, topic: string, payload: unknown): Promise<void> {
  await db.query(`${outboxInsertSql} values ($1, $2)`, [topic, JSON.stringify(payload)]);
}

/** Writes several events in one statement, in the order given (their ids follow it). */
export async function writeOutboxRows(db: Queryable, entries: readonly OutboxEntry[]): Promise<number> {
  if (entries.length === 0) return 0;
  await db.query(
    `${outboxInsertSql}
     select t, p from unnest($1::text[], $2::jsonb[]) with ordinality as e(t, p, n) order by n`,
    [entries.map((e) => e.topic), entries.map((e) => JSON.stringify(e.payload))],
  );
  return entries.length;
}

/** Writes one event through MikroORM, in the EntityManager's transaction (the changes made with entities). */
export async function appendOutbox(em: EntityManager, topic: string, payload: unknown): Promise<void> {
  await em.insert(OutboxEntity, { topic, payload });
}
