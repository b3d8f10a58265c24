// The one place that writes outbox rows. Every event is inserted in the transaction of the change it reports (the
// relay in ./outbox.ts publishes it after the commit); the layers above type their topics and payloads and call these.
// Topics are plain strings here: the platform knows no feature's events.
import { sql, type Expression, type InsertQueryBuilder, type InsertResult, type QueryCreator, type RawBuilder } from 'kysely';
import type { EntityManager } from './db/orm.js';
import type { Queryable } from './db/queryable.js';
import { OutboxEntity } from './db/entities.js';
import { affected, typedQueries, type TablesOf } from './db/typed.js';
import { noteEventsWrittenIn } from './db/sql.js';

/** One event to write: its topic and its payload (stored as jsonb). */
export interface OutboxEntry {
  topic: string;
  payload: unknown;
}

const topicShape = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

type OutboxTables = TablesOf<typeof OutboxEntity>;

const outboxDb = typedQueries<OutboxTables>();

/** One row to insert: the topic and the payload, each a value or an expression of the statement it is written in. */
export interface OutboxRowExpression {
  topic: Expression<string>;
  payload: Expression<unknown>;
}

/**
 * The event write of a typed statement that writes its events in the same round trip as the change (a writing CTE
 * of send, reply, forward): inserts the rows `select` yields, each with a `topic` and a `payload` column. Use it as
 * `.with('event', (db) => outboxInsertFrom(db, db.selectFrom('msg').select([...])))`.
 */
export function outboxInsertFrom<DB>(
  db: QueryCreator<DB>,
  select: Expression<{ topic: string; payload: unknown }>,
): InsertQueryBuilder<OutboxTables, 'outbox', InsertResult> {
  return (db as unknown as QueryCreator<OutboxTables>).insertInto('outbox').columns(['topic', 'payload']).expression(select);
}

/**
 * A topic as a literal of a typed statement. Topics are fixed names from the code, never input; the shape check keeps
 * a quote from ever reaching the statement text.
 */
export function outboxTopic(topic: string): RawBuilder<string> {
  if (!topicShape.test(topic)) throw new Error(`not an outbox topic: ${topic}`);
  return sql.lit(topic) as RawBuilder<string>;
}

/** Writes one event on `db`, which must be the transaction of the change. */
export async function writeOutbox(db: Queryable, topic: string, payload: unknown): Promise<void> {
  await affected(db, outboxDb.insertInto('outbox').values({ topic, payload: JSON.stringify(payload) }));
}

/** Writes several events in one statement, in the order given (their ids follow it). */
export async function writeOutboxRows(db: Queryable, entries: readonly OutboxEntry[]): Promise<number> {
  if (entries.length === 0) return 0;
  // A multi-row VALUES list inserts in its order, so the ids follow the entries.
  const values = entries.map((e) => ({ topic: e.topic, payload: JSON.stringify(e.payload) }));
  await affected(db, outboxDb.insertInto('outbox').values(values));
  return entries.length;
}

/** Writes one event through MikroORM, in the EntityManager's transaction (the changes made with entities). */
export async function appendOutbox(em: EntityManager, topic: string, payload: unknown): Promise<void> {
  // The ORM's commit of that transaction asks for the drain (orm.ts).
  const transaction: object | undefined = em.getTransactionContext();
  if (!transaction) throw new Error('appendOutbox runs inside em.transactional');
  await em.insert(OutboxEntity, { topic, payload });
  noteEventsWrittenIn(transaction);
}
